//! Golden tests for rng-bit-generator: expected states and bits were
//! computed by XLA:CPU (jax/jaxlib 0.10.2 through the corpus's
//! `xla_runner.py`) and must match exactly. (XLA:CPU returns the bits of
//! f32/f16/f64/s8 outputs as the unsigned type of the same width; the
//! expected values here are those bits reinterpreted as the declared type.)

#[path = "linalg_support/mod.rs"]
mod support;
use support::*;

#[test]
fn xla_rbg_three_fry_u32_3x5_0() {
    check(
        r#"HloModule rbg_three_fry_u32_3x5_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,5]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,5]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816554]),
            u32a(
                &[3, 5],
                &[
                    1499612517, 2396828263, 4220884610, 1496908859, 1406891314, 4249192036, 3307813880, 1157940528,
                    2345753995, 4158649380, 1963093522, 1690162881, 3636284357, 546835548, 208150098,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_3x5_1() {
    check(
        r#"HloModule rbg_three_fry_u32_3x5_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,5]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,5]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 6]),
            u32a(
                &[3, 5],
                &[
                    716547602, 2817868322, 508581705, 2396314326, 1238669515, 119654651, 1697322843, 1853162090,
                    2801716602, 2604409123, 532160929, 22138403, 966858650, 2882196243, 3885073540,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_7_0() {
    check(
        r#"HloModule rbg_three_fry_u32_7_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[7]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[7]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816549]),
            u32a(&[7], &[1499612517, 2396828263, 4220884610, 1496908859, 1406891314, 2263834536, 4249192036]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_7_1() {
    check(
        r#"HloModule rbg_three_fry_u32_7_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[7]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[7]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 1]),
            u32a(&[7], &[716547602, 2817868322, 508581705, 2396314326, 1238669515, 2381153771, 119654651]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_scalar_0() {
    check(
        r#"HloModule rbg_three_fry_u32_scalar_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816546]), u32a(&[], &[1499612517])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_scalar_1() {
    check(
        r#"HloModule rbg_three_fry_u32_scalar_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![u64a(&[2], &[3735928559, 18446744073709551614]), u32a(&[], &[716547602])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u64_5x3_0() {
    check(
        r#"HloModule rbg_three_fry_u64_5x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[5,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[5,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816560]),
            u64a(
                &[5, 3],
                &[
                    10294299005213099365,
                    6429174598718559874,
                    9723095297082225970,
                    14206952440104060516,
                    10074936694144288048,
                    12452390464884044836,
                    7259194300771233298,
                    2348640798586522565,
                    14163095653125201490,
                    14768017630123021283,
                    7255253095151523400,
                    18433919164596620865,
                    9554916931105215312,
                    5786527444943216948,
                    13919363781628753680,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u64_5x3_1() {
    check(
        r#"HloModule rbg_three_fry_u64_5x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[5,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[5,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 12]),
            u64a(
                &[5, 3],
                &[
                    12102652288140944914,
                    10292091661614864201,
                    10226977574430742731,
                    7289946101558397179,
                    12033281180103410282,
                    15974643742065565987,
                    95083717402829217,
                    12378938605305927578,
                    9220039287852074116,
                    18160864680438939880,
                    8204107979417883839,
                    11813083042747100955,
                    4469339811352986179,
                    4838096098838582347,
                    9334126945440325336,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u64_scalar_0() {
    check(
        r#"HloModule rbg_three_fry_u64_scalar_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816546]), u64a(&[], &[10294299005213099365])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u64_scalar_1() {
    check(
        r#"HloModule rbg_three_fry_u64_scalar_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![u64a(&[2], &[3735928559, 18446744073709551614]), u64a(&[], &[12102652288140944914])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u16_4x3_0() {
    check(
        r#"HloModule rbg_three_fry_u16_4x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u16[4,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u16[4,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816551]),
            u16a(&[4, 3], &[17765, 38530, 30002, 45671, 1083, 24488, 34404, 50480, 62500, 15352, 23947, 50982]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u16_4x3_1() {
    check(
        r#"HloModule rbg_three_fry_u16_4x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u16[4,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u16[4,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 3]),
            u16a(&[4, 3], &[42514, 22345, 39115, 16930, 56022, 34283, 51451, 618, 8483, 5979, 52602, 21976]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_s8_3x3_0() {
    check(
        r#"HloModule rbg_three_fry_s8_3x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, s8[3,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], s8[3,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816551]),
            s8a(&[3, 3], &[101, -126, 50, 103, 59, -88, 100, 48, 36]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_s8_3x3_1() {
    check(
        r#"HloModule rbg_three_fry_s8_3x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, s8[3,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], s8[3,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![u64a(&[2], &[3735928559, 3]), s8a(&[3, 3], &[18, 73, -53, 34, -42, -21, -5, 106, 35])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_f32_2x3_0() {
    check(
        r#"HloModule rbg_three_fry_f32_2x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, f32[2,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], f32[2,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816548]),
            f32a(&[2, 3], &[3.9806028e+15, -1.5534098e+36, 1.8851281e+12, -5.4405982e-30, 3.254845e+15, -9.004236e-35]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_f32_2x3_1() {
    check(
        r#"HloModule rbg_three_fry_f32_2x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, f32[2,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], f32[2,3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 0]),
            f32a(
                &[2, 3],
                &[3.2267293e-13, 1.10294785e-20, 1.7415934e+06, -6.807286e-15, -5.2472766e-30, -1.4638492e-30],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_3x4x5_0() {
    check(
        r#"HloModule rbg_three_fry_u32_3x4x5_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,4,5]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,4,5]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816575]),
            u32a(
                &[3, 4, 5],
                &[
                    1499612517, 4220884610, 1406891314, 4249192036, 1157940528, 2396828263, 1496908859, 2263834536,
                    3307813880, 2345753995, 4158649380, 1963093522, 3636284357, 208150098, 1345344483, 2899298086,
                    1690162881, 546835548, 3297602677, 3438447050, 68113992, 671878721, 551834448, 2263064884,
                    2271966992, 1689245248, 4291981264, 2224677459, 1347280909, 3240854428, 278862405, 1649731278,
                    3404802731, 386511155, 3526217135, 2328043873, 2494490111, 2644703980, 40935011, 2056247663,
                    3487615802, 2245138099, 1226684444, 853819334, 1255091128, 36326531, 921944281, 608634557,
                    2865205524, 1034942150, 197451321, 2874191641, 2127376114, 2503596041, 623998290, 2646974473,
                    211568089, 543142567, 2592361911, 1673602997,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_3x4x5_1() {
    check(
        r#"HloModule rbg_three_fry_u32_3x4x5_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,4,5]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,4,5]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 27]),
            u32a(
                &[3, 4, 5],
                &[
                    716547602, 508581705, 1238669515, 119654651, 1853162090, 2817868322, 2396314326, 2381153771,
                    1697322843, 2801716602, 2604409123, 532160929, 966858650, 3885073540, 3682615528, 3719386584,
                    22138403, 2882196243, 2146707681, 4228405812, 1948685503, 1629597467, 4231316035, 3229226059,
                    2808045272, 1910167741, 2750447728, 1040599264, 1126457028, 2173270784, 1579516556, 2937008175,
                    1653940478, 3621658728, 2557476780, 3693748134, 2582688748, 1683134489, 3001654239, 1295215994,
                    597591974, 1067809802, 3773876696, 1342615639, 1322568237, 456092817, 1856369459, 3350197573,
                    74049181, 4174063435, 2595390120, 3659481480, 615709619, 3577146017, 2561312285, 3741374682,
                    596399704, 3014950791, 3098977317, 1718032041,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_1x5x1_0() {
    check(
        r#"HloModule rbg_three_fry_u32_1x5x1_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[1,5,1]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[1,5,1]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816548]),
            u32a(&[1, 5, 1], &[1499612517, 2396828263, 4220884610, 1496908859, 1406891314]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u32_1x5x1_1() {
    check(
        r#"HloModule rbg_three_fry_u32_1x5x1_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[1,5,1]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[1,5,1]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 0]),
            u32a(&[1, 5, 1], &[716547602, 2817868322, 508581705, 2396314326, 1238669515]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u64_3_0() {
    check(
        r#"HloModule rbg_three_fry_u64_3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[3]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816548]),
            u64a(&[3], &[10294299005213099365, 6429174598718559874, 9723095297082225970]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_three_fry_u64_3_1() {
    check(
        r#"HloModule rbg_three_fry_u64_3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[3]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 0]),
            u64a(&[3], &[12102652288140944914, 10292091661614864201, 10226977574430742731]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_3x5_0() {
    check(
        r#"HloModule rbg_philox_u32_3x5_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,5]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816549]),
            u32a(
                &[3, 5],
                &[
                    701489181, 2326822665, 1787516815, 1633347395, 2267099603, 3152247410, 3285760742, 4185869557,
                    3549642433, 2255267666, 2525005701, 3977605018, 1215639822, 3841380649, 553784122,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_3x5_1() {
    check(
        r#"HloModule rbg_philox_u32_3x5_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,5]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 1]),
            u32a(
                &[3, 5],
                &[
                    3227093893, 4001044827, 1452751562, 1852414398, 2205609100, 3597339711, 465142290, 3010004880,
                    2773889660, 60968576, 1589219436, 2835598770, 1803767749, 3416263835, 32925822,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_7_0() {
    check(
        r#"HloModule rbg_philox_u32_7_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[7]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[7]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816547]),
            u32a(&[7], &[701489181, 2326822665, 1787516815, 1633347395, 2267099603, 3152247410, 3285760742]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_7_1() {
    check(
        r#"HloModule rbg_philox_u32_7_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[7]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[7]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 18446744073709551615]),
            u32a(&[7], &[3227093893, 4001044827, 1452751562, 1852414398, 2205609100, 3597339711, 465142290]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_scalar_0() {
    check(
        r#"HloModule rbg_philox_u32_scalar_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816546]), u32a(&[], &[701489181])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_scalar_1() {
    check(
        r#"HloModule rbg_philox_u32_scalar_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![u64a(&[2], &[3735928559, 18446744073709551614]), u32a(&[], &[3227093893])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u64_5x3_0() {
    check(
        r#"HloModule rbg_philox_u64_5x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[5,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[5,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816553]),
            u64a(
                &[5, 3],
                &[
                    9993627250468053021,
                    7015173646319310735,
                    13538799537117802963,
                    17978172855922768614,
                    9686300872745893569,
                    17083683471240497029,
                    16498604260157894926,
                    5994730501213131578,
                    7253573101044437040,
                    11599343274168501678,
                    12210085272446171905,
                    14815851611169755497,
                    9641962771273527584,
                    11948974432012888104,
                    9698395852810324099,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u64_5x3_1() {
    check(
        r#"HloModule rbg_philox_u64_5x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[5,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[5,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 5]),
            u64a(
                &[5, 3],
                &[
                    17184356685022071685,
                    7956059259502279370,
                    15450456413552700556,
                    12927872520865546770,
                    261858042777580156,
                    12178803983317045356,
                    14672741447636307909,
                    4803942786287429758,
                    288803509862327023,
                    10681647880511368880,
                    5335699104210213803,
                    17097846654015576299,
                    288187449283602594,
                    15605890733153329929,
                    3602241025849201205,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u64_scalar_0() {
    check(
        r#"HloModule rbg_philox_u64_scalar_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816546]), u64a(&[], &[9993627250468053021])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u64_scalar_1() {
    check(
        r#"HloModule rbg_philox_u64_scalar_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[])}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![u64a(&[2], &[3735928559, 18446744073709551614]), u64a(&[], &[17184356685022071685])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u16_4x3_0() {
    check(
        r#"HloModule rbg_philox_u16_4x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u16[4,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u16[4,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816548]),
            u16a(&[4, 3], &[57373, 32521, 22415, 59203, 12755, 31346, 47846, 19701, 16065, 42834, 34693, 28570]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u16_4x3_1() {
    check(
        r#"HloModule rbg_philox_u16_4x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u16[4,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u16[4,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 0]),
            u16a(&[4, 3], &[35717, 6491, 15050, 39358, 60556, 3135, 33298, 1936, 12924, 20096, 36972, 52658]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_s8_3x3_0() {
    check(
        r#"HloModule rbg_philox_s8_3x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, s8[3,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], s8[3,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816548]),
            s8a(&[3, 3], &[29, 9, -113, 67, -45, 114, -26, -11, -63]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_s8_3x3_1() {
    check(
        r#"HloModule rbg_philox_s8_3x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, s8[3,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], s8[3,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![u64a(&[2], &[3735928559, 0]), s8a(&[3, 3], &[-123, 91, -54, -66, -116, 63, 18, -112, 124])],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_f32_2x3_0() {
    check(
        r#"HloModule rbg_philox_f32_2x3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, f32[2,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], f32[2,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816547]),
            f32a(&[2, 3], &[9.231524e-14, -1.6995969e-32, 8.422709e+25, 2.523784e+20, -1.2126936e-34, -0.006942087]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_f32_2x3_1() {
    check(
        r#"HloModule rbg_philox_f32_2x3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, f32[2,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], f32[2,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 18446744073709551615]),
            f32a(&[2, 3], &[-3.3991406, -1.9427848e+28, 8.313938e+13, 1.8073968e+28, -7.2564445e-37, -6.4609457e+13]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_3x4x5_0() {
    check(
        r#"HloModule rbg_philox_u32_3x4x5_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,4,5]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,4,5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816560]),
            u32a(
                &[3, 4, 5],
                &[
                    701489181, 2326822665, 1787516815, 1633347395, 2267099603, 3152247410, 3285760742, 4185869557,
                    3549642433, 2255267666, 2525005701, 3977605018, 1215639822, 3841380649, 553784122, 1395756961,
                    3893694512, 1688854093, 2090943918, 2700682560, 224525057, 2842882013, 3903590761, 3449584266,
                    525119776, 2244944398, 39479336, 2782087408, 3521218691, 2258083748, 1603532362, 467001217,
                    3448613888, 408413032, 2555097722, 3206534783, 1912248802, 732672004, 3544037516, 1148742808,
                    1144756971, 3978785309, 1146606574, 3094096387, 1822285814, 4257259276, 3370551608, 257959782,
                    3881795580, 2865920512, 1876016158, 4232592672, 1560765060, 1850080475, 16139503, 97673267,
                    102266534, 2241351400, 2438287713, 1300734548,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_3x4x5_1() {
    check(
        r#"HloModule rbg_philox_u32_3x4x5_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[3,4,5]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[3,4,5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 12]),
            u32a(
                &[3, 4, 5],
                &[
                    3227093893, 4001044827, 1452751562, 1852414398, 2205609100, 3597339711, 465142290, 3010004880,
                    2773889660, 60968576, 1589219436, 2835598770, 1803767749, 3416263835, 32925822, 1118505091,
                    389735151, 67242307, 1303326384, 2487014951, 3335642027, 1242314256, 2360547563, 3980902641,
                    1330014370, 67098869, 824845065, 3633529584, 2769588789, 838712096, 2768003182, 1288906846,
                    2375590028, 2314375859, 2632222080, 2896002418, 1091221115, 2537504935, 2304255031, 2974721169,
                    134221329, 3235486262, 3996366988, 3239971737, 468395199, 1443184336, 4008476014, 581891875,
                    1576205048, 1531295486, 247225509, 517434657, 5319759, 2055088564, 801965427, 2661746607,
                    792550737, 3543593997, 3856561534, 1022492249,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_1x5x1_0() {
    check(
        r#"HloModule rbg_philox_u32_1x5x1_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[1,5,1]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[1,5,1]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816547]),
            u32a(&[1, 5, 1], &[701489181, 2326822665, 1787516815, 1633347395, 2267099603]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u32_1x5x1_1() {
    check(
        r#"HloModule rbg_philox_u32_1x5x1_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u32[1,5,1]{2,1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u32[1,5,1]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 18446744073709551615]),
            u32a(&[1, 5, 1], &[3227093893, 4001044827, 1452751562, 1852414398, 2205609100]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u64_3_0() {
    check(
        r#"HloModule rbg_philox_u64_3_0, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[3]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[1311768467294899695, 1147797409030816545])],
        vec![
            u64a(&[2], &[1311768467294899695, 1147797409030816547]),
            u64a(&[3], &[9993627250468053021, 7015173646319310735, 13538799537117802963]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox_u64_3_1() {
    check(
        r#"HloModule rbg_philox_u64_3_1, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[3]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[2], &[3735928559, 18446744073709551613])],
        vec![
            u64a(&[2], &[3735928559, 18446744073709551615]),
            u64a(&[3], &[17184356685022071685, 7956059259502279370, 15450456413552700556]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u32_9_0() {
    check(
        r#"HloModule rbg_philox3_u32_9_0, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[9]{0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[9]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[1, 2, 3])],
        vec![
            u64a(&[3], &[1, 5, 3]),
            u32a(
                &[9],
                &[
                    4031113034, 1366700262, 495645701, 3051723414, 89414891, 1917262711, 278163116, 614958348,
                    1116983156,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u32_9_1() {
    check(
        r#"HloModule rbg_philox3_u32_9_1, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[9]{0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[9]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[5, 18446744073709551614, 7])],
        vec![
            u64a(&[3], &[5, 1, 8]),
            u32a(
                &[9],
                &[
                    1600567900, 3578414771, 1611649039, 1102751893, 408654879, 156914071, 4246078289, 2550873154,
                    1414544935,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u32_9_2() {
    check(
        r#"HloModule rbg_philox3_u32_9_2, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[9]{0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[9]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[9, 18446744073709551615, 18446744073709551615])],
        vec![
            u64a(&[3], &[9, 2, 0]),
            u32a(
                &[9],
                &[
                    3785802689, 312802916, 2056997313, 2318537918, 3616162224, 2294480268, 3971813554, 3320055117,
                    1844306602,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u64_5_0() {
    check(
        r#"HloModule rbg_philox3_u64_5_0, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u64[5]{0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u64[5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[1, 2, 3])],
        vec![
            u64a(&[3], &[1, 5, 3]),
            u64a(
                &[5],
                &[
                    5869932932755744586,
                    13107052260063114245,
                    8234580641674714347,
                    2641225993340350124,
                    1962472297844690804,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u64_5_1() {
    check(
        r#"HloModule rbg_philox3_u64_5_1, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u64[5]{0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u64[5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[5, 18446744073709551614, 7])],
        vec![
            u64a(&[3], &[5, 1, 8]),
            u64a(
                &[5],
                &[
                    15369174414568897116,
                    4736283317648740367,
                    673940803635876895,
                    10955916776920449873,
                    4998200121197870631,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u64_5_2() {
    check(
        r#"HloModule rbg_philox3_u64_5_2, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u64[5]{0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u64[5]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[9, 18446744073709551615, 18446744073709551615])],
        vec![
            u64a(&[3], &[9, 2, 0]),
            u64a(
                &[5],
                &[
                    1343478298099237825,
                    9958044534402927041,
                    9854717715993477552,
                    14259528152404267186,
                    9115512593714111146,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u32_2x3_0() {
    check(
        r#"HloModule rbg_philox3_u32_2x3_0, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[2,3]{1,0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[2,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[1, 2, 3])],
        vec![
            u64a(&[3], &[1, 4, 3]),
            u32a(&[2, 3], &[4031113034, 1366700262, 495645701, 3051723414, 89414891, 1917262711]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u32_2x3_1() {
    check(
        r#"HloModule rbg_philox3_u32_2x3_1, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[2,3]{1,0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[2,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[5, 18446744073709551614, 7])],
        vec![
            u64a(&[3], &[5, 0, 8]),
            u32a(&[2, 3], &[1600567900, 3578414771, 1611649039, 1102751893, 408654879, 156914071]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_philox3_u32_2x3_2() {
    check(
        r#"HloModule rbg_philox3_u32_2x3_2, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[2,3]{1,0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[2,3]) rng-bit-generator(p0), algorithm=rng_philox
}"#,
        vec![u64a(&[3], &[9, 18446744073709551615, 18446744073709551615])],
        vec![
            u64a(&[3], &[9, 1, 0]),
            u32a(&[2, 3], &[3785802689, 312802916, 2056997313, 2318537918, 3616162224, 2294480268]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_default_u64() {
    check(
        r#"HloModule rbg_default_u64, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, u64[4,3]{1,0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], u64[4,3]) rng-bit-generator(p0), algorithm=rng_default
}"#,
        vec![u64a(&[2], &[3, 4])],
        vec![
            u64a(&[2], &[3, 10]),
            u64a(
                &[4, 3],
                &[
                    7273927384102244376,
                    13961825902842346770,
                    4779387745772766108,
                    8107851958298453240,
                    965454035261773598,
                    3936405443612513081,
                    2547730475843439433,
                    10230772650499571749,
                    1475545799255769891,
                    12958603422860892669,
                    17060272206817550329,
                    18388939454296222744,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_default_u64_3() {
    check(
        r#"HloModule rbg_default_u64_3, entry_computation_layout={(u64[3]{0})->(u64[3]{0}, u32[4,3]{1,0})}


ENTRY main {
  p0 = u64[3] parameter(0)
  ROOT r = (u64[3], u32[4,3]) rng-bit-generator(p0), algorithm=rng_default
}"#,
        vec![u64a(&[3], &[3, 4, 5])],
        vec![
            u64a(&[3], &[3, 7, 5]),
            u32a(
                &[4, 3],
                &[
                    2377602983, 3448950448, 1571162983, 2807201490, 2168325096, 1239743916, 1107190557, 471600676,
                    2147526362, 271136230, 377400206, 407839637,
                ],
            ),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_threefry_f64() {
    check(
        r#"HloModule rbg_threefry_f64, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, f64[3]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], f64[3]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3, 4])],
        vec![
            u64a(&[2], &[3, 7]),
            f64a(&[3], &[-7.483327666399786e+145, -2.6610020373289165e+110, -4.3412553699094636e-16]),
        ],
        0.0,
        0.0,
    );
}

#[test]
fn xla_rbg_threefry_f16() {
    check(
        r#"HloModule rbg_threefry_f16, entry_computation_layout={(u64[2]{0})->(u64[2]{0}, f16[5]{0})}


ENTRY main {
  p0 = u64[2] parameter(0)
  ROOT r = (u64[2], f16[5]) rng-bit-generator(p0), algorithm=rng_three_fry
}"#,
        vec![u64a(&[2], &[3, 4])],
        vec![u64a(&[2], &[3, 7]), f16a(&[5], &[58690, 63674, 48227, 21371, 22265])],
        0.0,
        0.0,
    );
}
