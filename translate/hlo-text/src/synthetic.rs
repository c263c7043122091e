//! Synthetic HLO modules of a given size, for benchmarks of the importer
//! and of the pass pipelines (compile-time scaling).

/// A module of `n` instructions: parameters, constants, broadcasts,
/// elementwise chains, reductions with a called computation, tuples.
pub fn synthetic_module(n: usize) -> String {
    let mut text = String::from(
        "HloModule synthetic, entry_computation_layout={(f32[64,128]{1,0}, f32[128]{0})->f32[64]{0}}\n\n\
         %add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n\n\
         ENTRY %main (x: f32[64,128], v: f32[128]) -> f32[64] {\n  %x = f32[64,128]{1,0} parameter(0)\n  %v = f32[128]{0} parameter(1)\n  %zero = f32[] constant(0)\n",
    );
    let mut last = "x".to_string();
    let mut i = 0;
    while i < n {
        let k = i;
        match k % 8 {
            0 => text += &format!("  %b{k} = f32[64,128]{{1,0}} broadcast(%v), dimensions={{1}}\n  %e{k} = f32[64,128]{{1,0}} add(%{last}, %b{k})\n"),
            1 => text += &format!("  %e{k} = f32[64,128]{{1,0}} multiply(%{last}, %{last})\n"),
            2 => text += &format!("  %c{k} = f32[] constant(0.5)\n  %cb{k} = f32[64,128]{{1,0}} broadcast(%c{k}), dimensions={{}}\n  %e{k} = f32[64,128]{{1,0}} maximum(%{last}, %cb{k})\n"),
            3 => text += &format!("  %e{k} = f32[64,128]{{1,0}} tanh(%{last})\n"),
            4 => text += &format!("  %r{k} = f32[64]{{0}} reduce(%{last}, %zero), dimensions={{1}}, to_apply=%add\n  %rb{k} = f32[64,128]{{1,0}} broadcast(%r{k}), dimensions={{0}}\n  %e{k} = f32[64,128]{{1,0}} subtract(%{last}, %rb{k})\n"),
            5 => text += &format!("  %t{k} = (f32[64,128]{{1,0}}, f32[]) tuple(%{last}, %zero)\n  %e{k} = f32[64,128]{{1,0}} get-tuple-element(%t{k}), index=0\n"),
            6 => text += &format!("  %e{k} = f32[64,128]{{1,0}} exponential(%{last})\n"),
            _ => text += &format!("  %p{k} = pred[64,128]{{1,0}} compare(%{last}, %x), direction=GT\n  %e{k} = f32[64,128]{{1,0}} select(%p{k}, %{last}, %x)\n"),
        }
        i += match k % 8 {
            0 | 5 | 7 => 2,
            2 | 4 => 3,
            _ => 1,
        };
        last = format!("e{k}");
    }
    text += &format!("  ROOT %out = f32[64]{{0}} reduce(%{last}, %zero), dimensions={{1}}, to_apply=%add\n}}\n");
    text
}
