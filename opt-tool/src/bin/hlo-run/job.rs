//! `mpirun -n N hlo-run ...`: this process is one device of N.
//!
//! Every process reads the same module and the same global arguments,
//! takes its device's share (its block of each argument when the module is
//! partitioned), runs its device with its collectives carried over MPI
//! (`rxla_mpi`), and all-gathers the devices' results; rank 0 prints and
//! writes them as a one-process run would. A process that fails aborts the
//! job, so no other waits forever in a collective.

use std::sync::Arc;

use rxla_interpreter::{literal::Literal, replicated::Exchange};

/// The MPI job this process is part of.
pub struct Job {
    pub rank: usize,
    pub size: usize,
    #[cfg(feature = "mpi")]
    mpi: rxla_mpi::Mpi,
}

/// True if an MPI launcher started this process with others.
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .any(|s| s.trim().parse::<usize>().is_ok_and(|n| n > 1))
}

impl Job {
    /// Joins the job if this process was launched by mpirun; `None` if not.
    pub fn join() -> Result<Option<Job>, String> {
        if !launched() {
            return Ok(None);
        }
        #[cfg(feature = "mpi")]
        {
            let mpi = rxla_mpi::Mpi::init()?;
            Ok(Some(Job { rank: mpi.rank(), size: mpi.size(), mpi }))
        }
        #[cfg(not(feature = "mpi"))]
        Err("started by mpirun, but this hlo-run was built without MPI (cargo feature `mpi`)".into())
    }

    /// The exchange this process's device uses for its collectives.
    pub fn exchange(&self) -> Arc<dyn Exchange> {
        #[cfg(feature = "mpi")]
        {
            self.mpi.exchange()
        }
        #[cfg(not(feature = "mpi"))]
        unreachable!("a job exists only with MPI")
    }

    /// Every device's `result`, on every process, in device order.
    pub fn gather(&self, result: Literal) -> Result<Vec<Literal>, String> {
        self.exchange().exchange(self.rank, "hlo-run: results", result).map_err(|e| e.to_string())
    }

    /// Ends every process of the job.
    pub fn abort(&self) -> ! {
        #[cfg(feature = "mpi")]
        {
            self.mpi.abort(1)
        }
        #[cfg(not(feature = "mpi"))]
        std::process::exit(1)
    }
}
