//! Golden tests for control flow and single-replica collectives: expected
//! outputs computed by XLA:CPU (jax/jaxlib 0.10.2 through the corpus's
//! `xla_runner.py`).

#[path = "linalg_support/mod.rs"]
mod support;
use support::*;

#[test]
fn xla_cc_all_reduce_1() {
    check(
        r#"HloModule cc_all_reduce_1, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p0 = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(p0), replica_groups={}, to_apply=add
}"#,
        vec![f32a(&[4], &[0.8472034, -0.7134554, -0.85430384, -1.514333])],
        vec![f32a(&[4], &[0.8472034, -0.7134554, -0.85430384, -1.514333])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_all_reduce_tuple() {
    check(
        r#"HloModule cc_all_reduce_tuple, entry_computation_layout={(f32[4]{0}, f32[2]{0})->(f32[4]{0}, f32[2]{0})}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p0 = f32[4] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT r = (f32[4], f32[2]) all-reduce(p0, p1), replica_groups={{0}}, to_apply=add
}"#,
        vec![f32a(&[4], &[-0.09759732, 1.1100488, 0.8976777, -0.6409518]), f32a(&[2], &[0.6330742, -0.5334843])],
        vec![f32a(&[4], &[-0.09759732, 1.1100488, 0.8976777, -0.6409518]), f32a(&[2], &[0.6330742, -0.5334843])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_all_gather_1() {
    check(
        r#"HloModule cc_all_gather_1, entry_computation_layout={(f32[4,2]{1,0})->f32[4,2]{1,0}}


ENTRY main {
  p0 = f32[4,2] parameter(0)
  ROOT r = f32[4,2] all-gather(p0), replica_groups={}, dimensions={1}
}"#,
        vec![f32a(
            &[4, 2],
            &[-0.7706064, 0.52858186, -0.10312541, 0.80534613, 1.2684202, 1.9392693, -0.96248496, 0.8786313],
        )],
        vec![f32a(
            &[4, 2],
            &[-0.7706064, 0.52858186, -0.10312541, 0.80534613, 1.2684202, 1.9392693, -0.96248496, 0.8786313],
        )],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_reduce_scatter_1() {
    check(
        r#"HloModule cc_reduce_scatter_1, entry_computation_layout={(f32[4,2]{1,0})->f32[4,2]{1,0}}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p0 = f32[4,2] parameter(0)
  ROOT r = f32[4,2] reduce-scatter(p0), replica_groups={}, dimensions={0}, to_apply=add
}"#,
        vec![f32a(
            &[4, 2],
            &[-0.8042795, -0.67545825, -0.5883926, 0.29291487, -0.7241938, 1.753694, -1.9465479, -0.038404662],
        )],
        vec![f32a(
            &[4, 2],
            &[-0.8042795, -0.67545825, -0.5883926, 0.29291487, -0.7241938, 1.753694, -1.9465479, -0.038404662],
        )],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_all_to_all_1() {
    check(
        r#"HloModule cc_all_to_all_1, entry_computation_layout={(f32[4,2]{1,0})->f32[4,2]{1,0}}


ENTRY main {
  p0 = f32[4,2] parameter(0)
  ROOT r = f32[4,2] all-to-all(p0), replica_groups={{0}}, dimensions={0}
}"#,
        vec![f32a(
            &[4, 2],
            &[-1.2304622, 0.2940027, 1.4734243, 0.3588301, -0.24943092, -1.1819735, 0.36064163, 0.72735184],
        )],
        vec![f32a(
            &[4, 2],
            &[-1.2304622, 0.2940027, 1.4734243, 0.3588301, -0.24943092, -1.1819735, 0.36064163, 0.72735184],
        )],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_permute_self() {
    check(
        r#"HloModule cc_permute_self, entry_computation_layout={(f32[3]{0})->f32[3]{0}}


ENTRY main {
  p0 = f32[3] parameter(0)
  ROOT r = f32[3] collective-permute(p0), source_target_pairs={{0,0}}
}"#,
        vec![f32a(&[3], &[-0.7440552, -0.6190705, 1.3020985])],
        vec![f32a(&[3], &[-0.7440552, -0.6190705, 1.3020985])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_permute_none() {
    check(
        r#"HloModule cc_permute_none, entry_computation_layout={(f32[3]{0})->f32[3]{0}}


ENTRY main {
  p0 = f32[3] parameter(0)
  ROOT r = f32[3] collective-permute(p0), source_target_pairs={}
}"#,
        vec![f32a(&[3], &[0.11990852, -0.06354703, 0.39742434])],
        vec![f32a(&[3], &[0.0, 0.0, 0.0])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_replica_partition() {
    check(
        r#"HloModule cc_replica_partition, entry_computation_layout={(f32[1]{0})->(u32[], u32[], f32[1]{0})}


ENTRY main {
  p0 = f32[1] parameter(0)
  a = u32[] replica-id()
  b = u32[] partition-id()
  ROOT t = (u32[], u32[], f32[1]) tuple(a, b, p0)
}"#,
        vec![f32a(&[1], &[0.55831945])],
        vec![u32a(&[], &[0]), u32a(&[], &[0]), f32a(&[1], &[0.55831945])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cc_opt_barrier_after_all() {
    check(
        r#"HloModule cc_opt_barrier_after_all, entry_computation_layout={(f32[2]{0}, s32[])->(f32[2]{0}, s32[])}


ENTRY main {
  p0 = f32[2] parameter(0)
  p1 = s32[] parameter(1)
  tk = token[] after-all()
  t = (f32[2], s32[]) tuple(p0, p1)
  ROOT o = (f32[2], s32[]) opt-barrier(t)
}"#,
        vec![f32a(&[2], &[1.6171694, 0.40118748]), s32a(&[], &[3])],
        vec![f32a(&[2], &[1.6171694, 0.40118748]), s32a(&[], &[3])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_cond_index_m1() {
    check(
        r#"HloModule cond_index_m1, entry_computation_layout={(s32[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = s32[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1, p1), branch_computations={b0, b1, b2}
}"#,
        vec![s32a(&[], &[-1]), f32a(&[2], &[-0.46110192, 1.0533698])],
        vec![f32a(&[2], &[0.46110192, 1.0533698])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_cond_index_0() {
    check(
        r#"HloModule cond_index_0, entry_computation_layout={(s32[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = s32[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1, p1), branch_computations={b0, b1, b2}
}"#,
        vec![s32a(&[], &[0]), f32a(&[2], &[-0.72148, -0.5304616])],
        vec![f32a(&[2], &[0.72148, 0.5304616])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_cond_index_1() {
    check(
        r#"HloModule cond_index_1, entry_computation_layout={(s32[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = s32[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1, p1), branch_computations={b0, b1, b2}
}"#,
        vec![s32a(&[], &[1]), f32a(&[2], &[-0.16282633, 0.81862336])],
        vec![f32a(&[2], &[0.8497387, 2.2673764])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_cond_index_2() {
    check(
        r#"HloModule cond_index_2, entry_computation_layout={(s32[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = s32[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1, p1), branch_computations={b0, b1, b2}
}"#,
        vec![s32a(&[], &[2]), f32a(&[2], &[1.3945353, 1.071161])],
        vec![f32a(&[2], &[1.3945353, 1.071161])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_cond_index_3() {
    check(
        r#"HloModule cond_index_3, entry_computation_layout={(s32[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = s32[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1, p1), branch_computations={b0, b1, b2}
}"#,
        vec![s32a(&[], &[3]), f32a(&[2], &[0.83554834, -0.56442297])],
        vec![f32a(&[2], &[0.83554834, 0.56442297])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_cond_index_100() {
    check(
        r#"HloModule cond_index_100, entry_computation_layout={(s32[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = s32[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1, p1), branch_computations={b0, b1, b2}
}"#,
        vec![s32a(&[], &[100]), f32a(&[2], &[0.4349324, 0.17089629])],
        vec![f32a(&[2], &[0.4349324, 0.17089629])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_cond_pred_false() {
    check(
        r#"HloModule cond_pred_false, entry_computation_layout={(pred[], f32[2]{0})->f32[2]{0}}

b0 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
b1 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] exponential(x)
}
b2 {
  x = f32[2] parameter(0)
  ROOT n = f32[2] abs(x)
}

ENTRY main {
  p0 = pred[] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT c = f32[2] conditional(p0, p1, p1), true_computation=b0, false_computation=b1
}"#,
        vec![preda(&[], &[false]), f32a(&[2], &[0.6712872, -1.9920653])],
        vec![f32a(&[2], &[1.9567544, 0.1364134])],
        1e-06,
        1e-06,
    );
}

#[test]
fn xla_add_dependency() {
    check(
        r#"HloModule add_dependency, entry_computation_layout={(f32[3]{0})->f32[3]{0}}


ENTRY main {
  p0 = f32[3] parameter(0)
  tk = token[] after-all()
  ROOT d = f32[3] add-dependency(p0, tk)
}"#,
        vec![f32a(&[3], &[-0.00924911, -0.45573092, -0.5181047])],
        vec![f32a(&[3], &[-0.00924911, -0.45573092, -0.5181047])],
        0.0,
        0.0,
    );
}
