//! What an address a command names must be (`SET ADDRESS`, `PROMOTE`, `SET INVITE`, `I AM
//! ALSO`): one the judge can send to, at a domain on the Internet, and a person's, not a
//! mail system's or a list's. The judge adds its own address to these
//! (`judge::addresses`); the loop guard reads the same accounts as addresses it never
//! answers (`mail::guard`).
//!
//! Pure: the address as text in, why it is refused out.

/// Why the judge takes no seat, invitation or link at `address` (which lettre reads), if it
/// takes none: an address literal (`a@[127.0.0.1]`: servers refuse to relay to one, and
/// every mail to it would be given up), a domain that is no domain on the Internet (`a@b`,
/// `a@localhost`, `a@1.2.3.4`, `.local`, `.invalid`), a mail system's account
/// (`MAILER-DAEMON@…`, `postmaster@…`), or an address that takes no replies or is a
/// list's (`noreply@…`, `…-request@…`). Lengths over RFC 5321's are refused by lettre
/// itself.
pub fn unmailable(address: &str) -> Option<&'static str> {
    let (local, domain) = address.rsplit_once('@')?;
    if domain.starts_with('[') {
        return Some(
            "an address at a bare IP address is not one it can send to; give an address at a domain name",
        );
    }
    let domain = domain.trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 || labels.iter().any(|l| l.is_empty()) {
        return Some(
            "its domain is not a full domain name (it has no dot); give an address such as you@example.org",
        );
    }
    if labels.iter().all(|l| l.chars().all(|c| c.is_ascii_digit())) {
        return Some(
            "an address at a bare IP address is not one it can send to; give an address at a domain name",
        );
    }
    let top = labels.last().copied().unwrap_or_default();
    if matches!(
        top,
        "localhost" | "local" | "invalid" | "internal" | "lan" | "home"
    ) {
        return Some("its domain is not one on the Internet");
    }
    if is_mail_system(local) {
        return Some("it is a mail system's account, not a player's");
    }
    if is_bulk(local) {
        return Some("it is an address that takes no replies, or a mailing list's");
    }
    None
}

/// The local part of an address (all of it when it has no `@`), lower case.
fn local_part(addr: &str) -> String {
    addr.rsplit_once('@')
        .map_or(addr, |(l, _)| l)
        .to_ascii_lowercase()
}

/// `MAILER-DAEMON@…`, `postmaster@…` and friends (the local part, any case; an address or
/// a bare local part).
pub fn is_mail_system(addr: &str) -> bool {
    matches!(
        local_part(addr).as_str(),
        "mailer-daemon" | "postmaster" | "mail-daemon" | "mailerdaemon"
    )
}

/// An address that takes no replies or is a list's: `noreply@…` and its spellings, a
/// list's request, owner and bounce addresses, list managers' own addresses (an address or
/// a bare local part).
pub fn is_bulk(addr: &str) -> bool {
    let local = local_part(addr);
    let squeezed: String = local
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    matches!(
        squeezed.as_str(),
        "noreply"
            | "donotreply"
            | "noreplies"
            | "listserv"
            | "majordomo"
            | "mailman"
            | "bounce"
            | "bounces"
    ) || local.ends_with("-request")
        || local.ends_with("-bounces")
        || local.ends_with("-bounce")
        || local.ends_with("-owner")
        || local.starts_with("owner-")
        || local.starts_with("bounce-")
        || local.starts_with("bounces+")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_persons_address_on_the_internet_is_taken() {
        for ok in [
            "player@example.org",
            "London.Desk@example.test",
            "a@mail.example.co.uk",
            "x@123.example.org",
        ] {
            assert_eq!(unmailable(ok), None, "{ok}");
        }
        for bad in [
            "a@[127.0.0.1]",
            "a@b",
            "a@localhost",
            "a@LOCALHOST",
            "a@host.localhost",
            "a@printer.local",
            "a@x.invalid",
            "a@1.2.3.4",
            "a@example..org",
            "MAILER-DAEMON@example.org",
            "postmaster@example.org",
            "noreply@example.org",
            "no-reply@example.org",
            "players-request@lists.example.org",
            "owner-players@lists.example.org",
        ] {
            assert!(unmailable(bad).is_some(), "{bad}");
        }
        assert!(is_mail_system("Mailer-Daemon"));
        assert!(is_bulk("do-not-reply@x.example"));
        assert!(!is_bulk("ann@x.example"));
    }
}
