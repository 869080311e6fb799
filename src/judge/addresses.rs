//! The one rule for an address a command names, wherever the judge takes one (`SET
//! ADDRESS`, `PROMOTE`, `SET INVITE`, `I AM ALSO`): the grammar's (`command::address`: an
//! address the judge can send to, a person's, at a domain on the Internet), and never the
//! judge's own, in any letter case or with any `+tag` (a seat there would have the judge
//! mail itself, and a link or an invitation there would speak for the judge).

use super::JudgeConfig;
use super::refusal::Refusal;

/// Why the judge takes no seat, invitation, co-master or link at `address`; None when it
/// takes it.
pub(super) fn refusal(config: &JudgeConfig, address: &str) -> Option<Refusal> {
    if is_own(&config.address, address) {
        return Some(Refusal::OwnAddress(address.to_string()));
    }
    crate::command::address::unmailable(address).map(|why| Refusal::BadAddress {
        address: address.to_string(),
        why,
    })
}

/// Whether `address` is the judge's (`own`): the same local part, or it with a `+tag`, at
/// the same domain, in any letter case.
fn is_own(own: &str, address: &str) -> bool {
    let split = |a: &str| {
        a.trim().rsplit_once('@').map(|(l, d)| {
            (
                l.to_ascii_lowercase(),
                d.trim_end_matches('.').to_ascii_lowercase(),
            )
        })
    };
    let (Some((own_local, own_domain)), Some((local, domain))) = (split(own), split(address))
    else {
        return false;
    };
    let base = local.split_once('+').map_or(local.as_str(), |(b, _)| b);
    domain == own_domain && (local == own_local || base == own_local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judges_own_address_is_refused_in_every_spelling() {
        let config = JudgeConfig {
            address: "judge@example.test".into(),
            ..JudgeConfig::default()
        };
        for own in [
            "judge@example.test",
            "JUDGE@Example.Test",
            "judge+players@example.test",
            "judge@example.test.",
        ] {
            assert!(
                matches!(refusal(&config, own), Some(Refusal::OwnAddress(_))),
                "{own}"
            );
        }
        for bad in ["MAILER-DAEMON@example.test", "a@b", "a@localhost"] {
            assert!(
                matches!(refusal(&config, bad), Some(Refusal::BadAddress { .. })),
                "{bad}"
            );
        }
        for ok in [
            "judge@other.example",
            "judges@example.test",
            "ann@example.test",
        ] {
            assert!(refusal(&config, ok).is_none(), "{ok}");
        }
    }
}
