//! Randomized properties of expressions and maps, checked by enumeration.

mod common;

use common::{domain, points, random_expr, random_interval, relation, ExprGen, RefExpr, Rng};
use rxla_indexing::{compose, Expr, IndexingMap, Interval, RangeEvaluator, Variable};

const CASES: u64 = 1000;

fn random_bounds(rng: &mut Rng, n: usize) -> Vec<Interval> {
    (0..n).map(|_| random_interval(rng, -4, 4, 4)).collect()
}

#[test]
fn canonical_construction_preserves_values() {
    let mut rng = Rng::new(1);
    for case in 0..CASES * 3 {
        let g = ExprGen { num_dims: 2, num_syms: 1, nonlinear: true, min_max: true };
        let r = random_expr(&mut rng, g, 4);
        let e = r.to_expr();
        for p in points(&[Interval::new(-4, 4), Interval::new(-3, 3), Interval::new(-2, 5)]) {
            let (dims, syms) = (&p[..2], &p[2..]);
            if let Some(v) = r.eval(dims, syms) {
                assert_eq!(e.eval(dims, syms), Some(v), "case {case}: {r:?}\ncanonical: {e} at {p:?}");
            }
        }
    }
}

#[test]
fn printing_round_trips() {
    let mut rng = Rng::new(2);
    for case in 0..CASES * 3 {
        let g = ExprGen { num_dims: 3, num_syms: 2, nonlinear: true, min_max: true };
        let e = random_expr(&mut rng, g, 4).to_expr();
        let text = e.to_string();
        let parsed = Expr::parse(&text).unwrap_or_else(|err| panic!("case {case}: `{text}`: {err}"));
        assert_eq!(parsed, e, "case {case}: `{text}` parsed as `{parsed}`");
        assert_eq!(parsed.to_string(), text);
    }
}

#[test]
fn range_analysis_bounds_every_value() {
    let mut rng = Rng::new(3);
    for case in 0..CASES * 2 {
        let g = ExprGen { num_dims: 2, num_syms: 1, nonlinear: true, min_max: true };
        let r = random_expr(&mut rng, g, 4);
        let dims = random_bounds(&mut rng, 2);
        let syms = random_bounds(&mut rng, 1);
        let ev = RangeEvaluator::from_bounds(dims.clone(), syms.clone());
        let all: Vec<Interval> = dims.iter().chain(&syms).copied().collect();
        let pts = points(&all);
        // Check the canonical expression and every subexpression of it.
        let e = r.to_expr();
        let mut subexprs = Vec::new();
        e.walk(&mut |n| subexprs.push(n.clone()));
        for n in subexprs {
            let range = ev.range(&n);
            for p in &pts {
                if let Some(v) = n.eval(&p[..2], &p[2..]) {
                    assert!(
                        range.contains(v),
                        "case {case}: {n} = {v} at {p:?} outside {range}; dims {dims:?} syms {syms:?}"
                    );
                }
            }
        }
    }
}

/// A random map over small boxes; divisors are non-zero constants so every
/// point of the domain evaluates. `dim_bounds` overrides the dimension bounds.
fn random_map_with(
    rng: &mut Rng,
    num_dims: usize,
    num_range: usize,
    num_rt: usize,
    num_results: usize,
    dim_bounds: Option<Vec<Interval>>,
    max_constraints: usize,
) -> IndexingMap {
    let g = ExprGen { num_dims, num_syms: num_range + num_rt, nonlinear: false, min_max: true };
    let results = (0..num_results).map(|_| random_expr(rng, g, 3).to_expr()).collect();
    let var = |rng: &mut Rng| Variable::from_interval(random_interval(rng, -2, 3, 3));
    let dims = match dim_bounds {
        Some(b) => b.into_iter().map(Variable::from_interval).collect(),
        None => (0..num_dims).map(|_| var(rng)).collect(),
    };
    let ranges = (0..num_range).map(|_| var(rng)).collect();
    let rts = (0..num_rt).map(|_| var(rng)).collect();
    let bounds_of = |vars: &Vec<Variable>| vars.iter().map(|v: &Variable| v.bounds).collect::<Vec<_>>();
    let ev =
        RangeEvaluator::from_bounds(bounds_of(&dims), bounds_of(&ranges).into_iter().chain(bounds_of(&rts)).collect());
    let mut constraints = Vec::new();
    for _ in 0..rng.below(max_constraints + 1) {
        let e = random_expr(rng, g, 2).to_expr();
        // A random part of the expression's range, so constraints usually
        // cut the domain without emptying it.
        let r = ev.range(&e).intersect(&Interval::new(-20, 20));
        let interval = if r.is_feasible() {
            let lo = rng.range(r.lower, r.upper);
            Interval::new(lo, rng.range(lo, r.upper))
        } else {
            random_interval(rng, -6, 6, 8)
        };
        constraints.push((e, interval));
    }
    IndexingMap::new(results, dims, ranges, rts, constraints).unwrap()
}

fn random_map(rng: &mut Rng, num_dims: usize, num_range: usize, num_rt: usize, num_results: usize) -> IndexingMap {
    random_map_with(rng, num_dims, num_range, num_rt, num_results, None, 2)
}

fn random_shape_map(rng: &mut Rng) -> IndexingMap {
    let nd = rng.range(1, 3) as usize;
    let nr = rng.range(0, 2) as usize;
    let nt = rng.range(0, 1) as usize;
    let nres = rng.range(1, 3) as usize;
    random_map(rng, nd, nr, nt, nres)
}

#[test]
fn simplification_preserves_domain_and_values() {
    let mut rng = Rng::new(4);
    let mut simplified_count = 0;
    for case in 0..CASES * 2 {
        let original = random_shape_map(&mut rng);
        let mut m = original.clone();
        if m.simplify() {
            simplified_count += 1;
        }
        let before = domain(&original);
        let after = domain(&m);
        assert_eq!(before, after, "case {case}: domain changed\noriginal:   {original}\nsimplified: {m}");
        for (d, s) in &before {
            assert_eq!(
                original.evaluate(d, s),
                m.evaluate(d, s),
                "case {case} at {d:?} {s:?}\noriginal:   {original}\nsimplified: {m}"
            );
        }
        if m.is_known_empty() {
            assert!(before.is_empty());
        } else {
            for (a, b) in m.dim_bounds().iter().zip(original.dim_bounds()) {
                assert!(b.contains_interval(a), "case {case}: bounds grew");
            }
        }
        let mut again = m.clone();
        assert!(!again.simplify(), "case {case}: not idempotent\nonce:  {m}\ntwice: {again}");
    }
    assert!(simplified_count > CASES as usize / 4, "the generator rarely produces simplifiable maps");
}

#[test]
fn composition_matches_relational_composition() {
    let mut rng = Rng::new(5);
    let mut non_empty = 0;
    for case in 0..CASES {
        let (nd, nr, nt) = (rng.range(1, 2) as usize, rng.range(0, 1) as usize, rng.range(0, 1) as usize);
        let producer_dims = rng.range(1, 3) as usize;
        let consumer = random_map_with(&mut rng, nd, nr, nt, producer_dims, None, 1);
        // Usually let the producer's dimensions cover (most of) the values
        // the consumer produces, so that compositions are rarely empty.
        let mut bounds: Vec<Interval> =
            (0..producer_dims).map(|_| common::random_interval(&mut rng, -2, 3, 3)).collect();
        if rng.chance(3, 4) {
            let mut hull = vec![Interval::empty(); producer_dims];
            for (_, y) in relation(&consumer) {
                for (h, v) in hull.iter_mut().zip(&y) {
                    *h = h.union(&Interval::point(*v));
                }
            }
            for (b, h) in bounds.iter_mut().zip(hull) {
                if h.is_feasible() && h.num_elements() <= 12 {
                    *b = Interval::new(h.lower + rng.range(0, 1), h.upper - rng.range(0, 1));
                }
            }
        }
        let (pr, pt) = (rng.range(0, 2) as usize, rng.range(0, 1) as usize);
        let nres = rng.range(1, 3) as usize;
        let producer = random_map_with(&mut rng, producer_dims, pr, pt, nres, Some(bounds), 1);
        let composed = compose(&consumer, &producer).unwrap();
        // Reference: relational composition of the two maps.
        let mut expected = std::collections::BTreeSet::new();
        let producer_rel = relation(&producer);
        for (d, x) in relation(&consumer) {
            for (px, y) in &producer_rel {
                if *px == x {
                    expected.insert((d.clone(), y.clone()));
                }
            }
        }
        assert_eq!(
            relation(&composed),
            expected,
            "case {case}\nconsumer: {consumer}\nproducer: {producer}\ncomposed: {composed}"
        );
        let mut simplified = composed.clone();
        simplified.simplify();
        assert_eq!(relation(&simplified), expected, "case {case}: simplify\n{composed}\n{simplified}");
        if !expected.is_empty() {
            non_empty += 1;
            // Dropping unused symbols keeps the relation (the existential
            // over a dropped symbol is satisfiable when the map is not empty).
            let mut reduced = simplified.clone();
            reduced.remove_unused_symbols();
            assert_eq!(relation(&reduced), expected, "case {case}: remove_unused_symbols\n{simplified}\n{reduced}");
        }
    }
    assert!(non_empty > CASES as usize / 5, "only {non_empty} non-empty compositions");
}

#[test]
fn map_text_round_trips() {
    let mut rng = Rng::new(6);
    for case in 0..CASES * 2 {
        let mut m = random_shape_map(&mut rng);
        if rng.chance(1, 2) {
            m.simplify();
        }
        let text = m.to_string();
        if m.is_known_empty() {
            assert_eq!(text, "KNOWN EMPTY");
            continue;
        }
        let parsed = IndexingMap::parse(&text).unwrap_or_else(|e| panic!("case {case}: `{text}`: {e}"));
        assert_eq!(parsed, m, "case {case}: `{text}`");
        assert_eq!(parsed.to_string(), text);
    }
}

#[test]
fn remove_unused_vars_keeps_the_used_part() {
    let mut rng = Rng::new(7);
    for case in 0..CASES {
        let m = random_shape_map(&mut rng);
        let mut r = m.clone();
        let removed = r.remove_unused_vars();
        if removed.iter().all(|&x| !x) {
            assert_eq!(r, m);
            continue;
        }
        // Every remaining variable is used by a result or tied to one.
        assert_eq!(removed.len(), m.num_dims() + m.num_symbols());
        let kept_dims: Vec<usize> = (0..m.num_dims()).filter(|&i| !removed[i]).collect();
        // Project the original relation onto the kept dimensions.
        let expected: std::collections::BTreeSet<_> =
            relation(&m).into_iter().map(|(d, y)| (kept_dims.iter().map(|&i| d[i]).collect::<Vec<_>>(), y)).collect();
        if !expected.is_empty() {
            assert_eq!(relation(&r), expected, "case {case}\n{m}\n{r}");
        }
    }
}

#[test]
fn parse_errors_are_reported() {
    let bad = [
        ("", "expected `(`"),
        ("(d0) -> (d0)", "expected `, domain:`"),
        ("(d0) -> (d0), domain: d1 in [0, 1]", "bounds of `d0`"),
        ("(d0) -> (d1), domain: d0 in [0, 1]", "unknown variable `d1`"),
        ("(d0, d0) -> (d0), domain: d0 in [0, 1], d0 in [0, 1]", "declared twice"),
        ("(d0) -> (d0 +), domain: d0 in [0, 1]", "expected an expression"),
        ("(d0) -> (d0), domain: d0 in [0 1]", "expected `,`"),
        ("(d0) -> (d0), domain: d0 in [0, 99999999999999999999]", "too large"),
        ("(d0) -> (d0), domain: d0 in [0, 1], d0 + 1 in [0, 2] junk", "after the end"),
        ("(d0) -> (d0), domain: d0 in [0, 1], d0 + 1 [0, 2]", "expected `in`"),
        ("(in) -> (in), domain: in in [0, 1]", "cannot be a variable name"),
        ("(d0) -> (d0 $ 1), domain: d0 in [0, 1]", "unexpected character"),
        ("(d0) -> ((d0), domain: d0 in [0, 1]", "unknown variable `domain`"),
        ("(d0) -> ((d0)", "expected `,`"),
        ("KNOWN EMPTY", "does not say how many"),
        ("(d0)[s0] -> (d0), domain: d0 in [0, 1]", "bounds of `s0`"),
        ("(d0) -> (min(d0)), domain: d0 in [0, 1]", "expected `,`"),
    ];
    for (text, message) in bad {
        let err = IndexingMap::parse(text).expect_err(text).to_string();
        assert!(err.contains(message), "`{text}`: got `{err}`, expected it to mention `{message}`");
    }
    assert!(Expr::parse("d0 + q").unwrap_err().to_string().contains("unknown variable `q`"));
    assert!(Expr::parse("9223372036854775808").is_err());
    // Division by zero parses (and evaluates to nothing), so it round-trips.
    let e = Expr::parse("d0 floordiv 0").unwrap();
    assert_eq!(e.eval(&[1], &[]), None);
    assert_eq!(e.to_string(), "d0 floordiv 0");
    assert_eq!(Expr::parse("-9223372036854775808").unwrap().as_const(), Some(i64::MIN));
}

#[test]
fn parser_accepts_xla_spellings() {
    let m = IndexingMap::parse(
        "(d0, d1) -> (d0 floorDiv 2 + d1 / 3, d0 % 4, d1 ceildiv 2, min(d0, d1), max(d0, -d1)), domain: d0 in [0, 9], d1 in [0, 9], is_simplified: false",
    )
    .unwrap();
    let ref_m = IndexingMap::parse(
        "(d0, d1) -> (d0 floordiv 2 + d1 floordiv 3, d0 mod 4, (d1 + 1) floordiv 2, min(d0, d1), max(d0, -d1)), domain: d0 in [0, 9], d1 in [0, 9]",
    )
    .unwrap();
    assert_eq!(m, ref_m);
    // Unary minus binds tighter than floordiv, as in MLIR.
    let e = Expr::parse("-d0 floordiv 2").unwrap();
    assert_eq!(e.eval(&[3], &[]), Some(-2));
    // Trailing comma and the empty map.
    assert!(IndexingMap::parse("(d0) -> (d0), domain: d0 in [0, 1],").is_ok());
    let empty = IndexingMap::parse("() -> ()").unwrap();
    assert_eq!(empty.to_string(), "() -> ()");
    let constant = IndexingMap::parse("() -> (5)").unwrap();
    assert_eq!(constant.to_string(), "() -> (5)");
}

#[test]
fn custom_names_survive_and_clash_safely() {
    let m = IndexingMap::parse("(th_x, bl_x)[s0]{off} -> (th_x + bl_x * 128 + s0 + off), domain: th_x in [0, 127], bl_x in [0, 3], s0 in [0, 1], off in [0, 5]").unwrap();
    assert_eq!(
        m.to_string(),
        "(th_x, bl_x)[s0]{off} -> (th_x + bl_x * 128 + s0 + off), domain: th_x in [0, 127], bl_x in [0, 3], s0 in [0, 1], off in [0, 5]"
    );
    // Two variables with the same custom name still print distinctly.
    let clash = IndexingMap::new(
        vec![Expr::dim(0) + Expr::sym(0)],
        vec![Variable::named(0, 1, "x")],
        vec![Variable::named(0, 1, "x")],
        vec![],
        vec![],
    )
    .unwrap();
    let text = clash.to_string();
    assert_eq!(IndexingMap::parse(&text).unwrap(), clash, "{text}");
    assert!(IndexingMap::new(vec![], vec![Variable::named(0, 1, "bad name")], vec![], vec![], vec![]).is_err());
    assert!(IndexingMap::new(vec![Expr::dim(1)], vec![Variable::new(0, 1)], vec![], vec![], vec![]).is_err());
}

#[test]
fn reference_evaluator_agrees_on_known_values() {
    // Spot checks of the reference semantics the properties rely on.
    let d = |i| Box::new(RefExpr::Dim(i));
    let c = |v| Box::new(RefExpr::Const(v));
    use rxla_indexing::BinOp::*;
    assert_eq!(RefExpr::Bin(FloorDiv, d(0), c(2)).eval(&[-3], &[]), Some(-2));
    assert_eq!(RefExpr::Bin(CeilDiv, d(0), c(2)).eval(&[-3], &[]), Some(-1));
    assert_eq!(RefExpr::Bin(Mod, d(0), c(-3)).eval(&[-4], &[]), Some(2));
    assert_eq!(RefExpr::Bin(Mod, d(0), c(0)).eval(&[1], &[]), None);
}
