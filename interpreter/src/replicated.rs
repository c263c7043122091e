//! Running a module on N simulated replicas, one thread each, so that
//! collectives (`all-reduce`, `all-gather`, `reduce-scatter`, `all-to-all`,
//! `collective-permute`, `collective-broadcast`) exchange real data.
//!
//! Every collective is a rendezvous of all replicas: each deposits its
//! operands, the last to arrive publishes the full set, and each replica
//! computes its own result from its replica group's contributions
//! (`ops::control`). Replicas must execute the same collectives in the same
//! order (as on XLA). When they do not, the run fails with an error instead
//! of hanging: a replica that finishes (or fails) while others wait in a
//! collective aborts the waiters, and replicas meeting at different
//! collective instructions are reported.
//!
//! A plain [`Interpreter::run`] is a single replica: its collectives see
//! only their own operands. [`Replicas`] lets another executor (rxla's CPU
//! runtime, whose collectives are interpreter steps) run its replicas the
//! same way.

use crate::{
    bail,
    error::{EvalError, Result},
    eval::Interpreter,
    literal::Literal,
};
use rxla_hlo_text::ast::Module;
use std::{
    cell::RefCell,
    sync::{Arc, Condvar, Mutex},
};

/// Runs `module`'s entry computation on `args_per_replica.len()` replicas,
/// replica `r` with `args_per_replica[r]` and `replica-id` = `r`, and
/// returns each replica's result. The first error of any replica (in time)
/// is the error of the run.
pub fn run_replicated(module: &Module, args_per_replica: &[Vec<Literal>]) -> Result<Vec<Literal>> {
    run_devices(module, args_per_replica.len(), 1, args_per_replica)
}

/// Runs `module`'s entry computation on `replicas x partitions` devices,
/// one thread each: device `d` is replica `d / partitions`, partition
/// `d % partitions` (XLA's default device assignment), with
/// `args_per_device[d]`; returns each device's result in device order.
pub fn run_devices(
    module: &Module,
    replicas: usize,
    partitions: usize,
    args_per_device: &[Vec<Literal>],
) -> Result<Vec<Literal>> {
    let n = replicas * partitions;
    if n == 0 {
        bail!("a run needs at least one replica and one partition");
    }
    if args_per_device.len() != n {
        bail!("{} argument lists for {replicas} replicas x {partitions} partitions", args_per_device.len());
    }
    let devices = Replicas::new(n);
    devices.run(256 << 20, |d| {
        let mut interpreter = Interpreter::new(module);
        interpreter.options.replicas = replicas;
        interpreter.options.partitions = partitions;
        interpreter.replica_id = d / partitions;
        interpreter.partition_id = d % partitions;
        interpreter.run(&args_per_device[d])
    })
}

/// The devices (replicas x partitions) of one run, for executors other
/// than the interpreter's (rxla's CPU runtime): each device runs on a
/// thread of its own, and the collectives the interpreter evaluates on
/// those threads (with `Options::replicas`/`partitions` and the
/// interpreter's replica and partition ids set) rendezvous with the
/// other devices.
#[derive(Clone)]
pub struct Replicas {
    rendezvous: Arc<Rendezvous>,
}

impl Replicas {
    pub fn new(n: usize) -> Replicas {
        Replicas { rendezvous: Arc::new(Rendezvous::new(n.max(1))) }
    }

    pub fn count(&self) -> usize {
        self.rendezvous.n
    }

    /// Runs `replica(r)` for every replica `r`, each on a thread of its own
    /// with `stack` bytes of stack, and returns their results in replica
    /// order. A replica that fails (or panics) aborts the others' waits;
    /// the first failure in time is the run's error, named by its replica.
    pub fn run<T: Send, E: std::fmt::Display>(
        &self,
        stack: usize,
        replica: impl Fn(usize) -> std::result::Result<T, E> + Sync,
    ) -> Result<Vec<T>> {
        let n = self.count();
        let results: Vec<Result<T>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .map(|r| {
                    let rendezvous = self.rendezvous.clone();
                    let replica = &replica;
                    std::thread::Builder::new().name(format!("replica-{r}")).stack_size(stack).spawn_scoped(
                        scope,
                        move || {
                            COMM.with(|c| *c.borrow_mut() = Some(rendezvous.clone() as Arc<dyn Exchange>));
                            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| replica(r)));
                            let result = match outcome {
                                Ok(Ok(value)) => Ok(value),
                                Ok(Err(e)) => Err(EvalError::new(e.to_string())),
                                Err(_) => Err(EvalError::new(format!("replica {r} panicked"))),
                            };
                            rendezvous.finish(r, result.as_ref().err());
                            COMM.with(|c| *c.borrow_mut() = None);
                            result
                        },
                    )
                })
                .collect();
            handles
                .into_iter()
                .enumerate()
                .map(|(r, h)| match h {
                    Ok(h) => h.join().unwrap_or_else(|_| Err(EvalError::new(format!("replica {r} panicked")))),
                    Err(e) => Err(EvalError::new(format!("cannot start replica {r}: {e}"))),
                })
                .collect()
        });
        if let Some(e) = self.rendezvous.first_failure() {
            return Err(e);
        }
        results.into_iter().collect()
    }
}

/// How the devices of a run exchange values: the collectives the
/// interpreter evaluates go through the exchange of the thread that plays
/// the device. In one process it is the threads' rendezvous
/// ([`Replicas`]); across processes another implementation (rxla-mpi's)
/// carries the values.
pub trait Exchange: Send + Sync {
    /// Deposits `device`'s `value` for the collective `name` and returns
    /// every device's value, indexed by device id; fails if the devices
    /// disagree on the collective.
    fn exchange(&self, device: usize, name: &str, value: Literal) -> Result<Vec<Literal>>;
}

impl Exchange for Rendezvous {
    fn exchange(&self, device: usize, name: &str, value: Literal) -> Result<Vec<Literal>> {
        Rendezvous::exchange(self, device, name, value)
    }
}

/// Runs `f` on this thread with its collectives going through `exchange`
/// (one device of a run whose other devices are elsewhere, e.g. other MPI
/// processes).
pub fn with_exchange<T>(exchange: Arc<dyn Exchange>, f: impl FnOnce() -> T) -> T {
    struct Reset(Option<Arc<dyn Exchange>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let previous = self.0.take();
            COMM.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _reset = Reset(COMM.with(|c| c.borrow_mut().replace(exchange)));
    f()
}

thread_local! {
    /// The exchange of the device this thread plays, if any.
    static COMM: RefCell<Option<Arc<dyn Exchange>>> = const { RefCell::new(None) };
}

/// Deposits `value` for the collective `name` and returns the values of
/// all devices, indexed by device id (`replica * partitions + partition`;
/// just `[value]` outside [`run_devices`]).
pub(crate) fn exchange(interp: &Interpreter, name: &str, value: Literal) -> Result<Vec<Literal>> {
    let comm = COMM.with(|c| c.borrow().clone());
    let devices = interp.options.replicas.max(1) * interp.options.partitions.max(1);
    match comm {
        Some(rendezvous) => {
            let device = interp.replica_id * interp.options.partitions.max(1) + interp.partition_id;
            rendezvous.exchange(device, name, value)
        }
        None if devices > 1 => {
            bail!("collective '{name}' needs {devices} devices to rendezvous; use replicated::run_devices")
        }
        None => Ok(vec![value]),
    }
}

struct State {
    /// Completed exchanges so far.
    generation: u64,
    /// Deposits of the exchange in progress.
    slots: Vec<Option<(String, Literal)>>,
    arrived: usize,
    /// The values of the last completed exchange.
    published: Arc<Vec<Literal>>,
    /// Replicas whose program has ended.
    finished: usize,
    /// The first replica failure.
    failure: Option<(usize, EvalError)>,
    /// Set when waiting replicas were aborted.
    aborted: Option<String>,
}

struct Rendezvous {
    n: usize,
    state: Mutex<State>,
    changed: Condvar,
}

impl Rendezvous {
    fn new(n: usize) -> Self {
        Rendezvous {
            n,
            state: Mutex::new(State {
                generation: 0,
                slots: vec![None; n],
                arrived: 0,
                published: Arc::new(Vec::new()),
                finished: 0,
                failure: None,
                aborted: None,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn exchange(&self, replica: usize, name: &str, value: Literal) -> Result<Vec<Literal>> {
        let mut st = self.lock();
        if let Some(msg) = abort_reason(&st) {
            bail!("{msg}");
        }
        if replica >= self.n || st.slots[replica].is_some() {
            bail!("replica {replica} entered collective '{name}' twice");
        }
        st.slots[replica] = Some((name.to_string(), value));
        st.arrived += 1;
        let generation = st.generation;
        if st.arrived == self.n {
            let deposits: Vec<(String, Literal)> =
                st.slots.iter_mut().map(|s| s.take().expect("every replica arrived")).collect();
            st.arrived = 0;
            st.generation += 1;
            if let Some((r, (other, _))) = deposits.iter().enumerate().find(|(_, (n, _))| n != name) {
                let msg = format!(
                    "replicas disagree on the collective: replica {replica} is at '{name}', replica {r} at '{other}'"
                );
                st.aborted = Some(msg.clone());
                self.changed.notify_all();
                bail!("{msg}");
            }
            st.published = Arc::new(deposits.into_iter().map(|(_, v)| v).collect());
            self.changed.notify_all();
            return Ok(st.published.as_ref().clone());
        }
        loop {
            if st.generation != generation {
                if let Some(msg) = &st.aborted {
                    bail!("{msg}");
                }
                return Ok(st.published.as_ref().clone());
            }
            if let Some(msg) = abort_reason(&st) {
                bail!("{msg}");
            }
            if st.finished > 0 && st.arrived + st.finished >= self.n {
                let msg = format!("collective '{name}': {} replica(s) finished without reaching it", st.finished);
                st.aborted = Some(msg.clone());
                self.changed.notify_all();
                bail!("{msg}");
            }
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn finish(&self, replica: usize, error: Option<&EvalError>) {
        let mut st = self.lock();
        st.finished += 1;
        if let Some(e) = error {
            if st.failure.is_none() && st.aborted.is_none() {
                st.failure = Some((replica, e.clone()));
            }
        }
        self.changed.notify_all();
    }

    fn first_failure(&self) -> Option<EvalError> {
        let st = self.lock();
        if let Some((r, e)) = &st.failure {
            let mut e = e.clone();
            e.message = format!("replica {r}: {}", e.message);
            return Some(e);
        }
        st.aborted.as_ref().map(|m| EvalError::new(m.clone()))
    }
}

fn abort_reason(st: &State) -> Option<String> {
    if let Some((r, e)) = &st.failure {
        return Some(format!("aborted: replica {r} failed: {e}"));
    }
    st.aborted.clone()
}
