//! One rxla device per MPI process: `mpirun -n N hlo-run ...`.
//!
//! The collectives rxla's executors evaluate (the interpreter's, which the
//! CPU runtime's collective steps use) exchange every device's value and
//! compute the result locally (`rxla_interpreter::replicated::Exchange`).
//! [`MpiExchange`] carries that exchange between processes: each value is
//! encoded ([`wire`]) and all-gathered over `MPI_COMM_WORLD`, rank `r`
//! playing device `r`. A process that fails aborts the job (MPI has no way
//! to leave a collective the others wait in).

pub mod wire;

use std::sync::{Arc, Mutex};

use mpi::{
    datatype::PartitionMut,
    environment::Universe,
    topology::{Communicator, SimpleCommunicator},
    traits::*,
    Threading,
};
use rxla_interpreter::{
    error::{EvalError, Result},
    replicated::Exchange,
    Literal,
};

/// True if this process was started by an MPI launcher (Open MPI's
/// `mpirun`, or a PMI/PMIx one) with more than one process.
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .any(|s| s.trim().parse::<usize>().is_ok_and(|n| n > 1))
}

/// MPI, initialized once for the process; finalized when dropped.
pub struct Mpi {
    _universe: Universe,
    world: SimpleCommunicator,
}

impl Mpi {
    /// Initializes MPI (serialized threading: one thread at a time calls
    /// it, not always the main one).
    pub fn init() -> std::result::Result<Mpi, String> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or("MPI is already initialized in this process")?;
        let world = universe.world();
        Ok(Mpi { _universe: universe, world })
    }

    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// The exchange of this process's device.
    pub fn exchange(&self) -> Arc<MpiExchange> {
        Arc::new(MpiExchange { world: Mutex::new(self.world.duplicate()) })
    }

    /// Ends every process of the job with `code` (after this one failed).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

/// [`Exchange`] over MPI: device `d` is rank `d`.
pub struct MpiExchange {
    world: Mutex<SimpleCommunicator>,
}

// SAFETY: MPI is initialized with serialized threading and every call goes
// through the mutex, so one thread at a time uses the communicator.
unsafe impl Send for MpiExchange {}
unsafe impl Sync for MpiExchange {}

impl MpiExchange {
    /// Every rank's `bytes`, in rank order.
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let world = self.world.lock().unwrap_or_else(|e| e.into_inner());
        let n = world.size() as usize;
        let mut counts = vec![0i32; n];
        world.all_gather_into(&(bytes.len() as i32), &mut counts[..]);
        let displs: Vec<i32> = counts
            .iter()
            .scan(0i32, |at, &c| {
                let d = *at;
                *at += c;
                Some(d)
            })
            .collect();
        let mut all = vec![0u8; counts.iter().map(|&c| c as usize).sum()];
        {
            let mut parts = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            world.all_gather_varcount_into(bytes, &mut parts);
        }
        counts.iter().zip(&displs).map(|(&c, &d)| all[d as usize..(d + c) as usize].to_vec()).collect()
    }
}

impl Exchange for MpiExchange {
    fn exchange(&self, device: usize, name: &str, value: Literal) -> Result<Vec<Literal>> {
        let mut payload = wire::encode_str(name);
        wire::encode(&value, &mut payload);
        let parts = self.all_gather(&payload);
        if device >= parts.len() {
            return Err(EvalError::new(format!("device {device} is not one of the {} MPI processes", parts.len())));
        }
        let mut values = Vec::with_capacity(parts.len());
        for (rank, part) in parts.iter().enumerate() {
            let mut at = 0;
            let other = wire::decode_str(part, &mut at).map_err(EvalError::new)?;
            if other != name {
                return Err(EvalError::new(format!(
                    "processes disagree on the collective: rank {device} is at '{name}', rank {rank} at '{other}'"
                )));
            }
            values.push(wire::decode(part, &mut at).map_err(EvalError::new)?);
        }
        Ok(values)
    }
}
