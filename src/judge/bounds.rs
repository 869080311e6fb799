//! The judge's fixed bounds on guessing that its refusals name: wrong passwords a seat, its
//! own address and one stranger's address may send in an hour (`throttle` applies them),
//! and wrong confirmation codes from other addresses (`confirm` applies it). A leaf module,
//! so that `refusal` can say the numbers without reaching the modules that refuse.

/// Wrong passwords a seat checks in an hour from addresses other than its own, together.
pub(super) const CHECKS_PER_HOUR: usize = 10;

/// Wrong passwords a seat checks in an hour from its own registered address.
pub(super) const OWNER_CHECKS_PER_HOUR: usize = 5;

/// Wrong passwords one address has checked in an hour for seats not its own, over every
/// game of the judge.
pub(super) const SENDER_CHECKS_PER_HOUR: usize = 20;

/// Wrong codes a confirmation takes from other addresses before it hears the address itself
/// only: 20 guesses in 2^40 do not find a code.
pub(super) const STRANGER_WRONG_CODES: u32 = 20;
