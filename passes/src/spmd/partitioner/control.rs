//! Computations run by control flow (`while`, `call`, `conditional`):
//! partitioned copies for the placements they are called with.

use super::*;

impl Partitioner<'_> {
    /// A partitioned copy of computation `name` (the original may have
    /// other callers), its parameters placed as `params`; returns the copy's
    /// name and its results' placements.
    pub(super) fn partitioned_copy(
        &mut self,
        name: &str,
        params: &[Placement],
        want: Want,
    ) -> Result<(String, Vec<Placement>)> {
        let func = computation::lookup(self.module, name)
            .ok_or_else(|| PassError(format!("no computation named '{name}'")))?;
        let copy = computation::clone_function(self.module, func, &format!("{name}{SPMD_SUFFIX}"))?;
        let places = partition_computation(self.module, copy, self.n, self.channels, Some(params), want)?;
        Ok((computation::name(copy), places))
    }

    /// `while`: the loop state keeps its init's placement (but for whole
    /// elements the body returns split, see [`loop_state`]); body and
    /// condition are partitioned for it (the body's result resharded back
    /// to it, the condition's pred whole).
    pub(super) fn while_loop(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let body = op.symbol_attr("body").ok_or_else(|| PassError("while without a body".into()))?;
        let body_func = computation::lookup(self.module, &body)
            .ok_or_else(|| PassError(format!("no computation named '{body}'")))?;
        let carry = loop_state(body_func, &operands[0].place, self.n)?;
        let init = if carry == operands[0].place {
            operands[0].value
        } else {
            self.reshard(&Builder::before(op), &operands[0], op.operand(0), &carry)?
        };
        let cond = op.symbol_attr("condition").ok_or_else(|| PassError("while without a condition".into()))?;
        let (body, _) = self.partitioned_copy(&body, std::slice::from_ref(&carry), Want::Given(vec![carry.clone()]))?;
        let pred = self.cond_result(&cond)?;
        let (cond, _) = self.partitioned_copy(&cond, std::slice::from_ref(&carry), Want::Given(vec![pred]))?;
        op.set_operand(0, init);
        op.set_symbol_attr("body", &body);
        op.set_symbol_attr("condition", &cond);
        self.finish(op, &[carry])
    }

    /// The whole placement of computation `name`'s one result.
    pub(super) fn cond_result(&self, name: &str) -> Result<Placement> {
        let func = computation::lookup(self.module, name)
            .ok_or_else(|| PassError(format!("no computation named '{name}'")))?;
        let ty = func
            .return_values()
            .first()
            .map(|v| v.ty())
            .ok_or_else(|| PassError("a condition without result".into()))?;
        Ok(Placement::replicated(&ty, self.n))
    }

    /// `call`: the callee partitioned for its operands' placements; the
    /// results are what it gives.
    pub(super) fn call(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let callee = op.symbol_attr("to_apply").ok_or_else(|| PassError("call without to_apply".into()))?;
        let params: Vec<Placement> = operands.iter().map(|l| l.place.clone()).collect();
        let (copy, places) = self.partitioned_copy(&callee, &params, Want::Any)?;
        for (i, l) in operands.iter().enumerate() {
            op.set_operand(i, l.value);
        }
        op.set_symbol_attr("to_apply", &copy);
        self.finish(op, &places)
    }

    /// `conditional`: the branch index whole; each branch partitioned for
    /// its operand's placement, all giving the first branch's result
    /// placements.
    pub(super) fn conditional(&mut self, op: Op, operands: &[Local]) -> Result<()> {
        let Some(branches) = op.symbol_list_attr("branch_computations") else {
            return self.whole_op(op, operands);
        };
        if branches.len() + 1 != operands.len() {
            return self.whole_op(op, operands);
        }
        let b = Builder::before(op);
        let index = self.reshard(&b, &operands[0], op.operand(0), &self.whole(op.operand(0)))?;
        op.set_operand(0, index);
        let mut results: Option<Vec<Placement>> = None;
        let mut copies = Vec::new();
        for (k, branch) in branches.iter().enumerate() {
            let l = &operands[k + 1];
            let want = match &results {
                Some(r) => Want::Given(r.clone()),
                None => Want::Any,
            };
            let (copy, places) = self.partitioned_copy(branch, std::slice::from_ref(&l.place), want)?;
            results.get_or_insert(places);
            copies.push(copy);
            op.set_operand(k + 1, l.value);
        }
        let mut next = copies.into_iter();
        computation::replace_callees(op, |_| next.next())?;
        self.finish(op, &results.unwrap_or_default())
    }
}
