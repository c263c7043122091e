//! Closed integer intervals `[lower, upper]` and the interval arithmetic used by
//! range analysis.
//!
//! Arithmetic saturates at the `i64` limits instead of overflowing: a saturated
//! bound is still a sound over-approximation, because evaluating an expression
//! whose true value does not fit in `i64` fails (see [`crate::Expr::eval`]).
//! An interval with `lower > upper` is empty; every operation on an empty
//! interval returns an empty interval.

use std::fmt;

/// A closed interval of integers, `[lower, upper]`, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Interval {
    pub lower: i64,
    pub upper: i64,
}

/// The canonical empty interval.
const EMPTY: Interval = Interval { lower: 0, upper: -1 };

fn clamp(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// Floor division on `i128` (the divisor must be non-zero).
pub(crate) fn floor_div_i128(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Ceiling division on `i128` (the divisor must be non-zero).
pub(crate) fn ceil_div_i128(a: i128, b: i128) -> i128 {
    -floor_div_i128(-a, b)
}

impl Interval {
    pub const fn new(lower: i64, upper: i64) -> Self {
        Interval { lower, upper }
    }

    /// The interval holding exactly `v`.
    pub const fn point(v: i64) -> Self {
        Interval { lower: v, upper: v }
    }

    /// Every `i64`: the answer when nothing is known.
    pub const fn full() -> Self {
        Interval { lower: i64::MIN, upper: i64::MAX }
    }

    /// The canonical empty interval `[0, -1]`.
    pub const fn empty() -> Self {
        EMPTY
    }

    /// True unless the interval is empty.
    pub fn is_feasible(&self) -> bool {
        self.lower <= self.upper
    }

    pub fn is_point(&self) -> bool {
        self.lower == self.upper
    }

    pub fn contains(&self, v: i64) -> bool {
        self.lower <= v && v <= self.upper
    }

    /// True if every value of `other` lies in `self` (an empty `other` is
    /// contained in anything).
    pub fn contains_interval(&self, other: &Interval) -> bool {
        !other.is_feasible() || (self.lower <= other.lower && other.upper <= self.upper)
    }

    /// Number of values in the interval (0 when empty).
    pub fn num_elements(&self) -> u128 {
        if self.is_feasible() {
            (self.upper as i128 - self.lower as i128 + 1) as u128
        } else {
            0
        }
    }

    pub fn intersect(&self, other: &Interval) -> Interval {
        Interval::new(self.lower.max(other.lower), self.upper.min(other.upper))
    }

    /// The smallest interval holding both (the convex hull).
    pub fn union(&self, other: &Interval) -> Interval {
        if !self.is_feasible() {
            return *other;
        }
        if !other.is_feasible() {
            return *self;
        }
        Interval::new(self.lower.min(other.lower), self.upper.max(other.upper))
    }

    fn both_feasible(&self, other: &Interval) -> bool {
        self.is_feasible() && other.is_feasible()
    }

    pub fn add(&self, other: &Interval) -> Interval {
        if !self.both_feasible(other) {
            return EMPTY;
        }
        Interval::new(self.lower.saturating_add(other.lower), self.upper.saturating_add(other.upper))
    }

    pub fn neg(&self) -> Interval {
        if !self.is_feasible() {
            return EMPTY;
        }
        Interval::new(clamp(-(self.upper as i128)), clamp(-(self.lower as i128)))
    }

    pub fn sub(&self, other: &Interval) -> Interval {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Interval) -> Interval {
        if !self.both_feasible(other) {
            return EMPTY;
        }
        let c = [
            self.lower as i128 * other.lower as i128,
            self.lower as i128 * other.upper as i128,
            self.upper as i128 * other.lower as i128,
            self.upper as i128 * other.upper as i128,
        ];
        let lo = c.iter().copied().min().unwrap_or(0);
        let hi = c.iter().copied().max().unwrap_or(0);
        Interval::new(clamp(lo), clamp(hi))
    }

    /// Applies `f` to the corners of `self x divisor`, splitting the divisor
    /// around zero (division by zero has no value, so it contributes nothing).
    fn div_like(&self, divisor: &Interval, f: fn(i128, i128) -> i128) -> Interval {
        if !self.both_feasible(divisor) {
            return EMPTY;
        }
        let mut parts = Vec::with_capacity(2);
        if divisor.lower < 0 {
            parts.push((divisor.lower as i128, (divisor.upper as i128).min(-1)));
        }
        if divisor.upper > 0 {
            parts.push(((divisor.lower as i128).max(1), divisor.upper as i128));
        }
        if parts.is_empty() {
            // Only division by zero: undefined everywhere, nothing is known.
            return Interval::full();
        }
        let mut lo = i128::MAX;
        let mut hi = i128::MIN;
        for (dl, du) in parts {
            // For a divisor range of one sign, x / y is monotonic in each
            // argument, so the extremes (and those of floor/ceil) are corners.
            for a in [self.lower as i128, self.upper as i128] {
                for b in [dl, du] {
                    let v = f(a, b);
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        Interval::new(clamp(lo), clamp(hi))
    }

    pub fn floor_div(&self, divisor: &Interval) -> Interval {
        self.div_like(divisor, floor_div_i128)
    }

    pub fn ceil_div(&self, divisor: &Interval) -> Interval {
        self.div_like(divisor, ceil_div_i128)
    }

    /// Range of `x mod m` (the non-negative, Euclidean remainder) for `x` in
    /// `self` and `m` in `modulus`.
    pub fn rem(&self, modulus: &Interval) -> Interval {
        if !self.both_feasible(modulus) {
            return EMPTY;
        }
        let max_abs = (modulus.lower as i128).abs().max((modulus.upper as i128).abs());
        if max_abs == 0 {
            return Interval::full();
        }
        if modulus.is_point() {
            let m = max_abs;
            let (l, u) = (self.lower as i128, self.upper as i128);
            // No wrap-around inside the interval: the remainders are contiguous.
            if u - l < m && l.rem_euclid(m) <= u.rem_euclid(m) {
                return Interval::new(clamp(l.rem_euclid(m)), clamp(u.rem_euclid(m)));
            }
            return Interval::new(0, clamp(m - 1));
        }
        let mut hi = max_abs - 1;
        if self.lower >= 0 {
            // A non-negative value's remainder never exceeds the value itself.
            hi = hi.min(self.upper as i128);
        }
        Interval::new(0, clamp(hi))
    }

    pub fn minimum(&self, other: &Interval) -> Interval {
        if !self.both_feasible(other) {
            return EMPTY;
        }
        Interval::new(self.lower.min(other.lower), self.upper.min(other.upper))
    }

    pub fn maximum(&self, other: &Interval) -> Interval {
        if !self.both_feasible(other) {
            return EMPTY;
        }
        Interval::new(self.lower.max(other.lower), self.upper.max(other.upper))
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.lower, self.upper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic() {
        let a = Interval::new(-3, 5);
        let b = Interval::new(2, 4);
        assert_eq!(a.add(&b), Interval::new(-1, 9));
        assert_eq!(a.sub(&b), Interval::new(-7, 3));
        assert_eq!(a.mul(&b), Interval::new(-12, 20));
        assert_eq!(a.floor_div(&Interval::point(2)), Interval::new(-2, 2));
        assert_eq!(a.ceil_div(&Interval::point(2)), Interval::new(-1, 3));
        assert_eq!(a.floor_div(&Interval::new(-1, 1)), Interval::new(-5, 5));
        assert_eq!(Interval::new(53, 71).rem(&Interval::point(42)), Interval::new(11, 29));
        assert_eq!(Interval::new(-5, -1).rem(&Interval::point(5)), Interval::new(0, 4));
        assert_eq!(Interval::new(0, 100).rem(&Interval::point(8)), Interval::new(0, 7));
        assert_eq!(Interval::new(0, 3).rem(&Interval::new(5, 9)), Interval::new(0, 3));
        assert_eq!(a.minimum(&b), Interval::new(-3, 4));
        assert_eq!(a.maximum(&b), Interval::new(2, 5));
        assert_eq!(Interval::full().mul(&Interval::point(2)), Interval::full());
        assert!(!Interval::empty().add(&a).is_feasible());
        assert_eq!(Interval::new(0, 9).to_string(), "[0, 9]");
    }
}
