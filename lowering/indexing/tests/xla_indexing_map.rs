//! Cases from XLA's `indexing_map_test.cc`, re-expressed for rxla: maps are
//! parsed from text, transformed, and compared with the expected map parsed
//! from text (structural equality of the canonical forms, names ignored).

use rxla_indexing::{compose, Expr, IndexingMap, Interval, SimplifyPointDimensions, Variable};

fn parse(text: &str) -> IndexingMap {
    IndexingMap::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[track_caller]
fn assert_map(actual: &IndexingMap, expected: &str) {
    let expected_map = parse(expected);
    assert_eq!(actual, &expected_map, "\nactual:   {actual}\nexpected: {expected_map}");
}

fn simplified(text: &str) -> (bool, IndexingMap) {
    let mut m = parse(text);
    let changed = m.simplify();
    (changed, m)
}

#[test]
fn rt_var_printing() {
    let m = IndexingMap::new(
        vec![Expr::dim(1), Expr::dim(0), Expr::sym(0) + Expr::sym(1), Expr::sym(2)],
        vec![Variable::new(0, 99), Variable::new(0, 43)],
        vec![Variable::named(-99, 99, "range")],
        vec![Variable::new(0, 2), Variable::new(0, 7)],
        vec![],
    )
    .unwrap();
    assert_eq!(
        m.to_string(),
        "(d0, d1)[range]{rt0, rt1} -> (d1, d0, range + rt0, rt1), domain: d0 in [0, 99], d1 in [0, 43], \
         range in [-99, 99], rt0 in [0, 2], rt1 in [0, 7]"
    );
}

#[test]
fn evaluate_ignores_domain_and_constraints_satisfied() {
    let mut m =
        parse("(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 3], d1 in [0, 3], s0 in [0, 1], s1 in [0, 1]");
    assert_eq!(m.evaluate(&[1, 2], &[3, 4]), Some(vec![2, 1, 4, 3]));
    assert!(m.constraints_satisfied(&[1, 2], &[3, 4]));
    m.add_constraint(Expr::sym(0).modulo_const(4), Interval::point(0)).unwrap();
    assert!(!m.constraints_satisfied(&[1, 2], &[5, 4]));
}

#[test]
fn composition_permutation() {
    let producer =
        parse("(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 3], d1 in [0, 3], s0 in [0, 1], s1 in [0, 1]");
    let consumer = parse("(d0)[s0] -> (d0, s0), domain: d0 in [0, 3], s0 in [0, 3]");
    let composed = compose(&consumer, &producer).unwrap();
    assert_map(
        &composed,
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], s2 in [0, 3]",
    );
}

#[test]
fn composition_restricted_interval() {
    let producer =
        parse("(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 4], d1 in [0, 5], s0 in [0, 6], s1 in [0, 1]");
    let consumer = parse("(d0)[s0] -> (d0, s0), domain: d0 in [0, 9], s0 in [0, 7]");
    assert_map(
        &compose(&consumer, &producer).unwrap(),
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 4], s0 in [0, 6], s1 in [0, 1], s2 in [0, 5]",
    );
}

#[test]
fn composition_producer_and_consumer_have_constraints() {
    let producer = parse(
        "(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 19], \
         d0 mod 8 in [0, 0], s0 mod 3 in [1, 1]",
    );
    let consumer =
        parse("(d0)[s0] -> (d0, s0), domain: d0 in [0, 9], s0 in [0, 7], d0 + s0 in [0, 20], s0 mod 4 in [0, 0]");
    let mut composed = compose(&consumer, &producer).unwrap();
    assert_map(
        &composed,
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 9], s0 in [0, 69], s1 in [0, 19], s2 in [0, 7], \
         d0 + s2 in [0, 20], d0 mod 8 in [0, 0], s0 mod 3 in [1, 1], s2 mod 4 in [0, 0]",
    );
    assert!(composed.simplify());
    assert_map(
        &composed,
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 8], s0 in [1, 67], s1 in [0, 19], s2 in [0, 4], \
         d0 mod 8 in [0, 0], s0 mod 3 in [1, 1], s2 mod 4 in [0, 0]",
    );
}

#[test]
fn composition_rt_vars() {
    let producer = IndexingMap::new(
        vec![Expr::dim(0) + Expr::sym(0), Expr::dim(1) + Expr::sym(1), Expr::dim(2) + Expr::sym(2)],
        vec![Variable::new(0, 0), Variable::new(0, 1), Variable::new(0, 226)],
        vec![],
        vec![Variable::new(0, 0), Variable::new(0, 1), Variable::new(0, 226)],
        vec![],
    )
    .unwrap();
    let consumer = IndexingMap::new(
        vec![Expr::constant(0), Expr::dim(1), Expr::sym(0)],
        vec![Variable::new(0, 0), Variable::new(0, 1)],
        vec![Variable::named(0, 31, "s")],
        vec![],
        vec![],
    )
    .unwrap();
    let composed = compose(&consumer, &producer).unwrap();
    assert_eq!(
        composed.to_string(),
        "(d0, d1)[s]{rt0, rt1, rt2} -> (rt0, d1 + rt1, s + rt2), domain: d0 in [0, 0], d1 in [0, 1], s in [0, 31], \
         rt0 in [0, 0], rt1 in [0, 1], rt2 in [0, 226]"
    );
}

#[test]
fn composition_only_rt_vars() {
    let producer = IndexingMap::new(
        vec![Expr::dim(0) + Expr::sym(0), Expr::dim(1) + Expr::sym(1) * 4],
        vec![Variable::new(0, 24), Variable::new(0, 15)],
        vec![],
        vec![Variable::named(0, 2, "ps_0"), Variable::named(0, 1, "ps_1")],
        vec![],
    )
    .unwrap();
    let consumer = IndexingMap::new(
        vec![Expr::dim(0) + Expr::sym(0) * 2, Expr::dim(1) + Expr::sym(1) * 3],
        vec![Variable::new(0, 24), Variable::new(0, 15)],
        vec![],
        vec![Variable::named(0, 25, "cs_0"), Variable::named(0, 16, "cs_1")],
        vec![],
    )
    .unwrap();
    let composed = compose(&consumer, &producer).unwrap();
    // XLA prints `d0 + cs_0 * 2 + ps_0`; rxla orders symbols by position.
    assert_eq!(
        composed.to_string(),
        "(d0, d1){ps_0, ps_1, cs_0, cs_1} -> (d0 + ps_0 + cs_0 * 2, d1 + ps_1 * 4 + cs_1 * 3), domain: \
         d0 in [0, 24], d1 in [0, 15], ps_0 in [0, 2], ps_1 in [0, 1], cs_0 in [0, 25], cs_1 in [0, 16], \
         d0 + cs_0 * 2 in [0, 24], d1 + cs_1 * 3 in [0, 15]"
    );
}

#[test]
fn compose_identity_with_itself() {
    let id = parse(
        "(d0, d1, d2, d3, d4, d5, d6)->(d0, d1, d2, d3, d4, d5, d6), domain : d0 in[0, 3], d1 in[0, 3], d2 in[0, 3], \
         d3 in[0, 3], d4 in[0, 3], d5 in[0, 3], d6 in[0, 3]",
    );
    assert_eq!(compose(&id, &id).unwrap(), id);
}

#[test]
fn known_empty() {
    assert_eq!(parse("(d0) -> (d0), domain: d0 in [10, 0]").to_string(), "KNOWN EMPTY");
    assert_eq!(parse("(d0) -> (d0), domain: d0 in [0, 49], 0 in [10, 15]").to_string(), "KNOWN EMPTY");
    let m = parse("(d0) -> (d0), domain: d0 in [0, 49]");
    let empty = parse("(d0) -> (d0), domain: d0 in [0, -1]");
    assert!(empty.is_known_empty());
    assert!(compose(&m, &empty).unwrap().is_known_empty());
    assert!(compose(&empty, &m).unwrap().is_known_empty());
    assert_eq!(compose(&m, &empty).unwrap().num_results(), 1);
    let (changed, m) = simplified(
        "(d0, d1)[s0, s1] -> (d1, d0, s1), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 19], s1 / 20 in [2, 2]",
    );
    assert!(changed);
    assert!(m.is_known_empty());
    let m = IndexingMap::new(
        vec![Expr::dim(0)],
        vec![Variable::new(0, 10)],
        vec![],
        vec![],
        vec![(Expr::constant(-1), Interval::new(0, 1)), (Expr::dim(0), Interval::new(0, 5))],
    )
    .unwrap();
    assert!(m.is_known_empty());
    assert!(m.constraints().is_empty());
}

#[test]
fn constraint_on_variable_affects_simplification() {
    let mut m = IndexingMap::new(
        vec![Expr::dim(0).modulo_const(16)],
        vec![Variable::new(0, 31)],
        vec![],
        vec![],
        vec![(Expr::dim(0), Interval::new(0, 7))],
    )
    .unwrap();
    assert!(m.simplify());
    assert_map(&m, "(d0) -> (d0), domain: d0 in [0, 7]");
}

#[test]
fn remove_unused_vars() {
    let mut m = parse(
        "(d0, d1)[s0, s1] -> (d1, s0, s1), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 19], \
         d0 + s0 in [1, 100], s0 mod 3 in [0, 0]",
    );
    let before = m.clone();
    m.remove_unused_vars();
    assert_eq!(m, before);

    let mut m = parse(
        "(d0, d1)[s0, s1] -> (s0, d1, s1), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 19], d0 mod 3 in [0, 0]",
    );
    m.remove_unused_vars();
    assert_map(&m, "(d0)[s0, s1] -> (s0, d0, s1), domain: d0 in [0, 59], s0 in [0, 69], s1 in [0, 19]");

    let mut m = parse(
        "(d0, d1)[s0, s1] -> (d0, d1, s1), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 19], s0 mod 3 in [0, 0]",
    );
    assert_eq!(m.remove_unused_symbols(), vec![true, false]);
    assert_map(&m, "(d0, d1)[s0] -> (d0, d1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 19]");

    let mut m = parse(
        "(d0)[s0, s1, s2, s3, s4] -> (d0 * 4 + s1 + s3 - 42), domain: d0 in [0, 31], s0 in [0, 0], s1 in [0, 1], \
         s2 in [0, 2], s3 in [0, 3], s4 in [0, 4], d0 * 4 + s1 + s3 in [24, 459]",
    );
    m.remove_unused_symbols();
    assert_map(
        &m,
        "(d0)[s0, s1] -> (d0 * 4 + s0 + s1 - 42), domain: d0 in [0, 31], s0 in [0, 1], s1 in [0, 3], d0 * 4 + s0 + s1 in [24, 459]",
    );

    let mut m = IndexingMap::new(
        vec![Expr::dim(0) * 4 + Expr::sym(1) + Expr::sym(3) - 42],
        vec![Variable::new(0, 31)],
        vec![Variable::new(0, 0), Variable::new(0, 1), Variable::new(0, 2)],
        vec![Variable::new(0, 3), Variable::new(0, 4)],
        vec![(Expr::dim(0) * 4 + Expr::sym(1) + Expr::sym(3), Interval::new(24, 459))],
    )
    .unwrap();
    m.remove_unused_symbols();
    assert_eq!(
        m.to_string(),
        "(d0)[s0]{rt0} -> (d0 * 4 + s0 + rt0 - 42), domain: d0 in [0, 31], s0 in [0, 1], rt0 in [0, 3], \
         d0 * 4 + s0 + rt0 in [24, 459]"
    );

    let mut m = parse(
        "(d0, d1, d2, d3, d4)[s0, s1, s2] -> (s0 * 4 + d1 + d3 - 42), domain: d0 in [0, 0], d1 in [0, 1], d2 in [0, 2], \
         d3 in [0, 3], d4 in [0, 4], s0 in [0, 31], s1 in [0, 63], s2 in [0, 95], s0 * 4 + d1 + d3 in [24, 459], \
         s0 + s2 in [0, 512]",
    );
    let removed = m.remove_unused_vars();
    assert_map(
        &m,
        "(d0, d1)[s0, s1] -> (s0 * 4 + d0 + d1 - 42), domain: d0 in [0, 1], d1 in [0, 3], s0 in [0, 31], s1 in [0, 95], \
         s0 * 4 + d0 + d1 in [24, 459], s0 + s1 in [0, 512]",
    );
    assert_eq!(removed, vec![true, false, true, false, true, false, true, false]);

    let mut m = parse(
        "(d0, d1)[s0, s1] -> (d1, d0, s1), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 19], \
         s0 + s1 in [1, 100], s0 mod 3 in [0, 0]",
    );
    let before = m.clone();
    m.remove_unused_symbols();
    assert_eq!(m, before);

    assert_map(&parse("(d0) -> (d0), domain: d0 in [0, 49], 0 in [-10, 5]"), "(d0) -> (d0), domain: d0 in [0, 49]");
}

#[test]
fn convert_symbols_to_dimensions() {
    let m = IndexingMap::new(
        vec![Expr::dim(0) * 4 + Expr::sym(0) + Expr::sym(1) + Expr::sym(2) * 2 + Expr::sym(3) * 3 - 42],
        vec![Variable::new(0, 31)],
        vec![Variable::new(0, 0), Variable::new(0, 1)],
        vec![Variable::new(0, 3), Variable::new(0, 4)],
        vec![(Expr::dim(0) * 4 + Expr::sym(0) + Expr::sym(2) * 2, Interval::new(24, 459))],
    )
    .unwrap();
    assert_map(
        &m.convert_symbols_to_dimensions(),
        "(d0, d1, d2, d3, d4) -> (d0 * 4 + d1 + d2 + d3 * 2 + d4 * 3 - 42), domain: d0 in [0, 31], d1 in [0, 0], \
         d2 in [0, 1], d3 in [0, 3], d4 in [0, 4], d0 * 4 + d1 + d3 * 2 in [24, 459]",
    );
}

#[test]
fn convert_range_variables_to_dimensions() {
    let m = parse(
        "(d0, d1)[to_convert_0, range, to_convert_1]{rt0, rt1} -> (d1, d0, range + to_convert_1 + rt0, to_convert_0), \
         domain: d0 in [0, 3], d1 in [0, 3], to_convert_0 in [0, 2], range in [0, 1], to_convert_1 in [0, 3], \
         rt0 in [0, 0], rt1 in [0, 1], d0 + d1 * 2 + to_convert_0 * 3 + to_convert_1 * 4 + range * 5 in [0, 100]",
    );
    let converted = m.convert_range_variables_to_dimensions(&[0, 2]).unwrap();
    assert_map(
        &converted,
        "(d0, d1, to_convert_0, to_convert_1)[range]{rt0, rt1} -> (d1, d0, range + to_convert_1 + rt0, to_convert_0), \
         domain: d0 in [0, 3], d1 in [0, 3], to_convert_0 in [0, 2], to_convert_1 in [0, 3], range in [0, 1], \
         rt0 in [0, 0], rt1 in [0, 1], d0 + d1 * 2 + to_convert_0 * 3 + to_convert_1 * 4 + range * 5 in [0, 100]",
    );
    assert!(m.convert_range_variables_to_dimensions(&[2, 0]).is_err());
}

#[test]
fn constraint_interval_simplification() {
    let cases = [
        ("(d0) -> (d0), domain: d0 in [0, 99], d0 mod 8 + 5 in [6, 10]", "(d0) -> (d0), domain: d0 in [0, 99], d0 mod 8 in [1, 5]"),
        (
            "(d0)[s0, s1] -> (d0 * 6 + s0 * 3 + s1), domain: d0 in [0, 1999], s0 in [0, 1], s1 in [0, 2], d0 * 6 + s0 * 3 + s1 in [0, 599]",
            "(d0)[s0, s1] -> (d0 * 6 + s0 * 3 + s1), domain: d0 in [0, 99], s0 in [0, 1], s1 in [0, 2]",
        ),
        ("(d0) -> (d0), domain: d0 in [0, 99], d0 / 8 in [5, 11]", "(d0) -> (d0), domain: d0 in [40, 95]"),
        ("(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-99, 99], s0 / 3 in [-11, -5]", "(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-33, -13]"),
        // XLA expects [15, 35] here, but floor(35 / -3) = -12 is outside
        // [-11, -5] while floor(13 / -3) = -5 is inside: [13, 33] is exact.
        ("(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-99, 99], s0 / -3 in [-11, -5]", "(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [13, 33]"),
        ("(d0) -> (d0), domain: d0 in [0, 99], d0 * 8 in [14, 33]", "(d0) -> (d0), domain: d0 in [2, 4]"),
        ("(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-99, 99], s0 * 3 in [-11, -5]", "(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-3, -2]"),
        ("(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-99, 99], s0 * -3 in [-11, -5]", "(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [2, 3]"),
        (
            "(d0)[s0, s1] -> (d0, s1, s0), domain: d0 in [0, 3], s0 in [-21, -2], s1 in [0, 10], d0 mod 3 in [0, 0], \
             s0 mod 2 in [0, 0], s0 mod 3 in [0, 0], s1 mod 5 in [1, 1]",
            "(d0)[s0, s1] -> (d0, s1, s0), domain: d0 in [0, 3], s0 in [-18, -6], s1 in [1, 6], d0 mod 3 in [0, 0], \
             s0 mod 6 in [0, 0], s1 mod 5 in [1, 1]",
        ),
    ];
    for (input, expected) in cases {
        let (changed, m) = simplified(input);
        assert!(changed, "{input}");
        assert_map(&m, expected);
    }
    let (changed, m) = simplified("(d0) -> (d0), domain: d0 in [0, 99], d0 mod 8 + 5 in [50, 54]");
    assert!(changed && m.is_known_empty());
    // Not independent of s1: stays as it is.
    let (changed, _) = simplified(
        "(d0)[s0, s1] -> (d0 * 6 + s0 * 3 + s1), domain: d0 in [0, 1999], s0 in [0, 1], s1 in [0, 2], d0 * 6 + s0 * 3 + s1 in [0, 598]",
    );
    assert!(!changed);
    let mut m = parse("(d0) -> (d0), domain: d0 in [0, 99]");
    m.add_constraint((Expr::dim(0) - 5).modulo_const(1), Interval::point(0)).unwrap();
    assert_map(&m, "(d0) -> (d0), domain: d0 in [0, 99]");
}

#[test]
fn point_dimensions() {
    let mut m = parse("(d0) -> (d0), domain: d0 in [5, 5]");
    assert!(!m.simplify_with(SimplifyPointDimensions::Preserve));
    assert!(m.simplify());
    assert_eq!(m.to_string(), "(d0) -> (5), domain: d0 in [5, 5]");
}

/// `(input, expected)` pairs for result simplification.
const RESULT_CASES: &[(&str, &str)] = &[
    ("(d0, d1) -> (((d0 / 3) * 3 + d1 / 2) / 6), domain: d0 in [0, 11], d1 in [0, 5]", "(d0, d1) -> (d0 / 6), domain: d0 in [0, 11], d1 in [0, 5]"),
    ("(d0) -> (d0 mod 42), domain: d0 in [53, 71]", "(d0) -> (d0 - 42), domain: d0 in [53, 71]"),
    ("(d0) -> (d0 mod 5), domain: d0 in [-5, -1]", "(d0) -> (d0 + 5), domain: d0 in [-5, -1]"),
    ("(d0)[s0] -> (d0 - (s0 / 3) * 3 + s0), domain: d0 in [0, 1], s0 in [0, 3]", "(d0)[s0] -> (s0 mod 3 + d0), domain: d0 in [0, 1], s0 in [0, 3]"),
    ("(d0)[s0] -> (d0 - (s0 / 3) * 12 + s0 * 7), domain: d0 in [0, 1], s0 in [0, 3]", "(d0)[s0] -> ((s0 mod 3) * 4 + s0 * 3 + d0), domain: d0 in [0, 1], s0 in [0, 3]"),
    ("(d0)[s0] ->  (1 + d0 - ((s0 + 1) / 3) * 3 + s0), domain: d0 in [0, 1], s0 in [0, 3]", "(d0)[s0] -> ((s0 + 1) mod 3 + d0), domain: d0 in [0, 1], s0 in [0, 3]"),
    ("(d0, d1) -> (d0 + d1 / 16, d1 mod 16), domain: d0 in [0, 7], d1 in [0, 15]", "(d0, d1) -> (d0, d1), domain: d0 in [0, 7], d1 in [0, 15]"),
    (
        "(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) / 100, ((d0 * 100 + d1 * 10 + d2) mod 100) / 10, d2 mod 10), domain: d0 in [0, 8], d1 in [0, 8], d2 in [0, 8]",
        "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 8], d1 in [0, 8], d2 in [0, 8]",
    ),
    (
        "(d0, d1, d2) -> ((d0 * 16 + d1 * 4 + d2) / 8, (d0 * 16 + d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
        "(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) / 8, (d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
    ),
    (
        "(d0, d1) -> (-((d0 * -11 - d1 + 109) / 11) + 9, d0 * 11 + d1 + ((d0 * -11 - d1 + 109) / 11) * 11 - 99), domain: d0 in [0, 7], d1 in [0, 8]",
        "(d0, d1) -> (d0, d1), domain: d0 in [0, 7], d1 in [0, 8]",
    ),
    ("()[s0] -> ((s0 * 128) mod 715 + ((s0 * 128) / 715) * 715), domain: s0 in [0, 127]", "()[s0] -> (s0 * 128), domain: s0 in [0, 127]"),
    ("(d0, d1) -> ((d0 mod 8) * 128 + d1 + (d0 / 8) * 1024), domain: d0 in [0, 1023], d1 in [0, 127]", "(d0, d1) -> (d0 * 128 + d1), domain: d0 in [0, 1023], d1 in [0, 127]"),
    (
        "(d0, d1) -> (((d1 * 2 + d0 / 64) mod 3) * 256 + (d0 mod 64) * 4 + ((d1 * 128 + d0) / 192) * 768), domain: d0 in [0, 127], d1 in [0, 3071]",
        "(d0, d1) -> (d0 * 4 + d1 * 512), domain: d0 in [0, 127], d1 in [0, 3071]",
    ),
    (
        "(d0, d1) -> ((d0 / 1536) * 786432 + (((d0 * 2 + d1 / 64) / 3) mod 1024) * 768 + ((d0 * 2 + d1 / 64) mod 3) * 256 + (d1 mod 64) * 4), domain: d0 in [0, 3071], d1 in [0, 127]",
        "(d0, d1) -> (d0 * 512 + d1 * 4), domain: d0 in [0, 3071], d1 in [0, 127]",
    ),
    ("()[s0] -> (-(s0 / 144) + (s0 * 32 + 4639) / 4608), domain: s0 in [0, 10000]", "()[s0] -> (1), domain: s0 in [0, 10000]"),
    ("()[s0] -> (-(s0 / 315) + (s0 * 2 - 40319) / 630 + 65), domain: s0 in [0, 10000]", "()[s0] -> (1), domain: s0 in [0, 10000]"),
    ("()[s0] -> (s0 - ((s0 / 2) / 7) * 14 + (s0 / 14) * 14), domain: s0 in [0, 1233]", "()[s0] -> (s0), domain: s0 in [0, 1233]"),
    ("(d0, d1) -> ((d0 * 2 + d1) mod 2), domain: d0 in [0, 99], d1 in [0, 99]", "(d0, d1) -> (d1 mod 2), domain: d0 in [0, 99], d1 in [0, 99]"),
    ("(d0) -> ((d0 / 16) * 16 + (d0 mod 16)), domain: d0 in [0, 99]", "(d0) -> (d0), domain: d0 in [0, 99]"),
    ("()[s0, s1] -> ((s0 * 2 + s1 / 64) / 3), domain: s0 in [0, 1233], s1 in [0, 127]", "()[s0, s1] -> ((s0 * 128 + s1) / 192), domain: s0 in [0, 1233], s1 in [0, 127]"),
    ("()[s0] -> ((s0 * 6 + 9) / 18), domain: s0 in [0, 1233]", "()[s0] -> ((s0 * 2 + 3) / 6), domain: s0 in [0, 1233]"),
    ("()[s0] -> ((s0 * 16 - 497) / 512), domain: s0 in [0, 4]", "()[s0] -> (-1), domain: s0 in [0, 4]"),
    (
        "()[s0, s1, s2, s3] -> ((s0 * 458752 + s1 + s2 * 4 + s3 * 512) mod 20000), domain: s0 in [0, 871], s1 in [0, 3], s2 in [0, 127], s3 in [0, 895]",
        "()[s0, s1, s2, s3] -> (((s0 * 114688 + s3 * 128 + s2) mod 5000) * 4 + s1), domain: s0 in [0, 871], s1 in [0, 3], s2 in [0, 127], s3 in [0, 895]",
    ),
    (
        "()[s0, s1] -> ((s0 * 16 - (s1 / 4) / 2 + (s1 / 8) * 2) / 4), domain: s0 in [0, 1], s1 in [0, 127]",
        "()[s0, s1] -> (s0 * 4 + s1 / 32), domain: s0 in [0, 1], s1 in [0, 127]",
    ),
    ("(d0) -> (min(d0, d0 + 1)), domain: d0 in [0, 10]", "(d0) -> (d0), domain: d0 in [0, 10]"),
    ("(d0) -> (min(10, d0)), domain: d0 in [0, 5]", "(d0) -> (d0), domain: d0 in [0, 5]"),
    ("(d0) -> (max(d0, d0 - 1)), domain: d0 in [0, 10]", "(d0) -> (d0), domain: d0 in [0, 10]"),
    ("(d0) -> (max(10, d0)), domain: d0 in [0, 5]", "(d0) -> (10), domain: d0 in [0, 5]"),
    ("(d0, d1) -> (min(128, d0 * 32 + d1 / 64 + 1)), domain: d0 in [0, 3], d1 in [0, 2047]", "(d0, d1) -> (d0 * 32 + d1 / 64 + 1), domain: d0 in [0, 3], d1 in [0, 2047]"),
    ("(d0, d1) -> (max(128, d0 * 32 + d1 / 64 + 1)), domain: d0 in [0, 3], d1 in [0, 2047]", "(d0, d1) -> (128), domain: d0 in [0, 3], d1 in [0, 2047]"),
];

#[test]
fn result_simplification() {
    for (input, expected) in RESULT_CASES {
        let (_, m) = simplified(input);
        assert_map(&m, expected);
        // Simplification is idempotent.
        let mut again = m.clone();
        assert!(!again.simplify(), "second simplify changed {m}");
    }
}

#[test]
fn no_simplification() {
    for input in [
        "(d0) -> (d0 mod 5), domain: d0 in [-4, 0]",
        "(d0) -> (d0 mod 5), domain: d0 in [-6, -1]",
        "()[s0, s1] -> ((s0 / 3 + s1 / 3) / 6), domain: s0 in [0, 1233], s1 in [0, 127]",
        "()[s0] -> ((s0 / 2) / -7), domain: s0 in [0, 1233]",
        "(d0) -> ((-d0) mod 2), domain: d0 in [0, 127]",
    ] {
        let (changed, m) = simplified(input);
        assert!(!changed, "{input} became {m}");
    }
    assert_eq!(
        parse("(d0) -> ((-d0) mod 2), domain: d0 in [0, 127]").to_string(),
        "(d0) -> ((-d0) mod 2), domain: d0 in [0, 127]"
    );
    // `((s0 * 64) / 715) * 715 + (s0 * 128) mod 715` has nothing to combine.
    let (_, m) = simplified("()[s0] -> ((s0 * 128) mod 715 + ((s0 * 64) / 715) * 715), domain: s0 in [0, 127]");
    assert_map(&m, "()[s0] -> (((s0 * 64) / 715) * 715 + (s0 * 128) mod 715), domain: s0 in [0, 127]");
}

#[test]
fn simplify_is_idempotent_on_regressions() {
    for input in [
        "(d0, d1)[s0, s1] -> (((((d0 + (d0 mod 3)) / 3) + (s0 + ((s0 + s0) mod 3))) + (((d0 + s0) mod 3) + 0))), \
         domain: d0 in [0, 9], d1 in [0, 19], s0 in [0, 29], s1 in [0, 39]",
        "(d0)[s0] -> ((((s0 + d0) + d0) / 2)), domain: d0 in [0, 9], s0 in [0, 19]",
    ] {
        let mut m = parse(input);
        m.simplify();
        assert!(!m.simplify(), "{m}");
    }
}

#[test]
fn rescale_symbols() {
    let mut m = parse("(d0)[s0, s1, s2] -> (s2, d0, s1, s0 / 6), domain: d0 in [0, 3], s0 in [0, 6], s1 in [0, 1], s2 in [0, 5], s0 mod 6 in [0, 0]");
    assert!(m.rescale_symbols());
    // `(s0 * 6) floordiv 6` is already `s0` by construction in rxla.
    m.simplify();
    assert_map(
        &m,
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], s2 in [0, 5]",
    );

    let mut m = parse("(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 41], s1 in [0, 1], s2 in [0, 5], s0 mod 6 in [3, 3]");
    assert!(m.rescale_symbols());
    assert_map(
        &m,
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0 * 6 + 3), domain: d0 in [0, 3], s0 in [0, 6], s1 in [0, 1], s2 in [0, 5]",
    );

    let mut m = parse("(d0)[s0, s1, s2] -> (s2, d0, s1, s0 / 6), domain: d0 in [0, 3], s0 in [0, 7], s1 in [0, 1], s2 in [0, 5], s0 mod 2 in [0, 0], s0 mod 3 in [0, 0]");
    assert!(m.rescale_symbols());
    m.simplify();
    assert_map(
        &m,
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], s2 in [0, 5]",
    );

    let mut m = parse("(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 9], s1 in [0, 1], s2 in [0, 5], s0 * s2 in [0, 28], s0 mod 6 in [3, 3]");
    assert!(m.rescale_symbols());
    assert_map(&m, "(d0)[s0, s1, s2] -> (s2, d0, s1, s0 * 6 + 3), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], s2 in [0, 5], (s0 * 6 + 3) * s2 in [0, 28]");
}

#[test]
fn range_evaluator() {
    let m = parse("(d0, d1, d2, d3)[] -> (0), domain: d0 in [0, 9], d1 in [-10, -1], d2 in [-1, 2], d3 in [0, 0]");
    let ev = rxla_indexing::RangeEvaluator::new(&m, true);
    let d = Expr::dim;
    assert!(ev.is_always_non_negative(&d(0)));
    assert!(!ev.is_always_non_negative(&d(1)));
    assert!(!ev.is_always_non_negative(&d(2)));
    assert!(ev.is_always_non_negative(&d(3)));
    assert_eq!(ev.range(&(d(0) * 2 + d(1))), Interval::new(-10, 17));
    assert_eq!(ev.range(&d(0).minimum(&d(1))), Interval::new(-10, -1));
    assert_eq!(ev.range(&d(0).maximum(&d(1))), Interval::new(0, 9));
}

#[test]
fn result_ranges() {
    let mut m = parse(
        "(d0, d1) -> ((d0 * 86 + d1) floordiv 64, (d0 * 86 + d1) mod 64), domain: d0 in [0, 11], d1 in [0, 85], d0 * 86 + d1 in [0, 1023]",
    );
    assert_eq!(m.compute_result_ranges(), vec![Interval::new(0, 15), Interval::new(0, 63)]);
    m.clear_constraints();
    assert_eq!(m.compute_result_ranges(), vec![Interval::new(0, 16), Interval::new(0, 63)]);
}

#[test]
fn hash_and_eq_are_consistent() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let texts = [
        "(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 79]",
        "(d0, d1)[s0, s1] -> (d1 * 2, d0, s1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 79]",
        "(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 50], d1 in [0, 59], s0 in [0, 69], s1 in [0, 79]",
        "(a, b)[s0, s1] -> (b, a, s1, s0), domain: a in [0, 49], b in [0, 59], s0 in [0, 69], s1 in [0, 79]",
        "(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 79], d0 mod 8 in [0, 0], d0 mod 16 in [0, 0]",
        "(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 79], d0 mod 16 in [0, 0], d0 mod 8 in [0, 0]",
        "(d0, d1)[s0, s1] -> (d1, d0, s1, s0), domain: d0 in [0, 49], d1 in [0, 59], s0 in [0, 69], s1 in [0, 79], d0 mod 8 in [0, 0], d0 mod 32 in [0, 0]",
    ];
    let maps: Vec<IndexingMap> = texts.iter().map(|t| parse(t)).collect();
    let h = |m: &IndexingMap| {
        let mut s = DefaultHasher::new();
        m.hash(&mut s);
        s.finish()
    };
    for a in &maps {
        for b in &maps {
            if a == b {
                assert_eq!(h(a), h(b));
            }
            assert_eq!(a != b, !(a == b));
        }
    }
    assert_eq!(maps[0], maps[3], "names do not matter");
    assert_eq!(maps[4], maps[5], "constraint order does not matter");
    assert_ne!(maps[0], maps[2]);
}

#[test]
fn undefined_map() {
    let u = IndexingMap::undefined();
    assert!(u.is_undefined());
    assert_eq!(u.to_string(), "UNDEFINED");
    assert!(IndexingMap::parse("UNDEFINED").unwrap().is_undefined());
    assert!(compose(&u, &parse("(d0) -> (d0), domain: d0 in [0, 3]")).unwrap().is_undefined());
    assert!(!IndexingMap::identity(&[10]).is_undefined());
}
