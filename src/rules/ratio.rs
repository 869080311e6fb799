//! Exact rational strengths (H6, H7): never a float. Shell Shock needs 1/2, 3/4 and 3/2.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Add;

/// A non-negative exact rational, kept in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strength {
    num: u32,
    den: u32,
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Strength {
    /// Nothing: a unit that cannot attack or hold here.
    pub const ZERO: Strength = Strength { num: 0, den: 1 };
    /// One: the standard strength of a unit and of a support.
    pub const ONE: Strength = Strength { num: 1, den: 1 };

    /// `num / den`; a zero denominator gives zero (a rule set cannot ask for the impossible).
    pub fn new(num: u32, den: u32) -> Strength {
        if den == 0 || num == 0 {
            return Strength::ZERO;
        }
        let g = gcd(num, den);
        Strength {
            num: num / g,
            den: den / g,
        }
    }

    /// A whole number.
    pub fn whole(n: u32) -> Strength {
        Strength { num: n, den: 1 }
    }

    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    pub fn numerator(self) -> u32 {
        self.num
    }

    pub fn denominator(self) -> u32 {
        self.den
    }
}

impl Default for Strength {
    fn default() -> Self {
        Strength::ZERO
    }
}

impl Add for Strength {
    type Output = Strength;
    fn add(self, o: Strength) -> Strength {
        if self.den == o.den {
            return Strength::new(self.num + o.num, self.den);
        }
        let num = u64::from(self.num) * u64::from(o.den) + u64::from(o.num) * u64::from(self.den);
        let den = u64::from(self.den) * u64::from(o.den);
        let g = {
            let (mut a, mut b) = (num, den);
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a.max(1)
        };
        Strength::new(
            u32::try_from(num / g).unwrap_or(u32::MAX),
            u32::try_from(den / g).unwrap_or(1),
        )
    }
}

impl PartialOrd for Strength {
    fn partial_cmp(&self, o: &Strength) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Strength {
    fn cmp(&self, o: &Strength) -> Ordering {
        (u64::from(self.num) * u64::from(o.den)).cmp(&(u64::from(o.num) * u64::from(self.den)))
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sums_and_order() {
        let half = Strength::new(1, 2);
        let three_quarters = Strength::new(3, 4);
        assert_eq!(half + half, Strength::ONE);
        assert_eq!(half + three_quarters, Strength::new(5, 4));
        assert!(Strength::new(3, 2) > Strength::ONE);
        assert_eq!(Strength::new(2, 4), half);
        assert_eq!(Strength::new(3, 2).to_string(), "3/2");
        assert_eq!(three_quarters + three_quarters, Strength::new(3, 2));
        assert!(Strength::ZERO < Strength::new(1, 1000));
    }
}
