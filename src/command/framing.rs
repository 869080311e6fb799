//! Where a sender's own text ends in a mail body, and which lines around the commands are
//! greetings (grammar/framing.md §Where reading stops): the reply headers and separators of
//! the common mail clients in the languages of the judge's players, attribution lines, the
//! judge's own reply reproduced under a reply, signatures and phones' sign-offs.
//!
//! Every form is a row in a table below, so a client or a language is added by a line.
//! The functions look at one normalised line (and the one after it where a form spans two);
//! they decide nothing about commands.

use crate::map::{Map, edit_distance_within};

/// The phrases of the separator lines mail clients put above a quoted or forwarded
/// original, written between runs of dashes (`-----Original Message-----`, Thunderbird's
/// `-------- Original Message --------`, Gmail's `---------- Forwarded message ---------`).
/// Compared in lower case, blanks collapsed.
const SEPARATOR_PHRASES: &[&str] = &[
    // English: Outlook, Thunderbird; Gmail's and Thunderbird's forwards.
    "original message",
    "forwarded message",
    // German
    "ursprüngliche nachricht",
    "originalnachricht",
    "weitergeleitete nachricht",
    // French
    "message d'origine",
    "message original",
    "message transféré",
    // Spanish
    "mensaje original",
    "mensaje reenviado",
    // Italian
    "messaggio originale",
    "messaggio inoltrato",
    // Dutch
    "oorspronkelijk bericht",
    "origineel bericht",
    "doorgestuurd bericht",
    // Portuguese (Thunderbird's forward in Portugal: reencaminhada)
    "mensagem original",
    "mensagem encaminhada",
    "mensagem reencaminhada",
    // Swedish
    "ursprungligt meddelande",
    "originalmeddelande",
    "vidarebefordrat meddelande",
    // Polish
    "wiadomość oryginalna",
    "oryginalna wiadomość",
    "przekazana wiadomość",
    "wiadomość przekazana",
    // Thunderbird's Polish forward, between three dashes.
    "treść przekazanej wiadomości",
];

/// Apple Mail's line above a forwarded original, in lower case without its colon.
const FORWARD_INTROS: &[&str] = &[
    "begin forwarded message",
    "anfang der weitergeleiteten nachricht",
    "début du message réexpédié",
    "début du message transféré",
    "inicio del mensaje reenviado",
    "comienzo del mensaje reenviado",
    "inizio messaggio inoltrato",
    "begin doorgestuurd bericht",
    "início da mensagem reencaminhada",
    "começo da mensagem encaminhada",
    "início da mensagem encaminhada",
    "vidarebefordrat brev",
    "vidarebefordrat mejl",
    "början på vidarebefordrat meddelande",
    "początek przekazywanej wiadomości",
];

/// What a header line of a quoted original names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    From,
    Sent,
    To,
    Subject,
    Cc,
}

/// The labels of the header block that Outlook (and Apple Mail's and Gmail's forwards) write
/// above a quoted original, in lower case: `From:`/`Sent:`, `Von:`/`Gesendet:`, `De :`/
/// `Envoyé :` … A blank may stand before the colon (French typography).
const HEADER_LABELS: &[(&str, Label)] = &[
    // English
    ("from", Label::From),
    ("sent", Label::Sent),
    ("date", Label::Sent),
    ("to", Label::To),
    ("subject", Label::Subject),
    ("cc", Label::Cc),
    // German
    ("von", Label::From),
    ("gesendet", Label::Sent),
    ("datum", Label::Sent),
    ("an", Label::To),
    ("betreff", Label::Subject),
    // French
    ("de", Label::From),
    ("envoyé", Label::Sent),
    ("à", Label::To),
    ("objet", Label::Subject),
    ("sujet", Label::Subject),
    ("pour", Label::To),
    // Spanish
    ("enviado el", Label::Sent),
    ("enviado", Label::Sent),
    ("fecha", Label::Sent),
    ("para", Label::To),
    ("asunto", Label::Subject),
    // Italian
    ("da", Label::From),
    ("inviato", Label::Sent),
    ("data", Label::Sent),
    ("a", Label::To),
    ("oggetto", Label::Subject),
    ("ccn", Label::Cc),
    // Thunderbird's Italian forward: Oggetto, Data, Mittente, A.
    ("mittente", Label::From),
    // Dutch
    ("van", Label::From),
    ("verzonden", Label::Sent),
    ("aan", Label::To),
    ("onderwerp", Label::Subject),
    ("kopie", Label::Cc),
    // Portuguese
    ("enviada em", Label::Sent),
    ("enviada", Label::Sent),
    ("assunto", Label::Subject),
    // Swedish
    ("från", Label::From),
    ("skickat", Label::Sent),
    ("till", Label::To),
    ("ämne", Label::Subject),
    ("kopia", Label::Cc),
    // Polish
    ("od", Label::From),
    ("wysłano", Label::Sent),
    ("wysłane", Label::Sent),
    ("do", Label::To),
    ("temat", Label::Subject),
    ("dw", Label::Cc),
    // Thunderbird's Polish forward: Temat, Data, Nadawca, Adresat.
    ("nadawca", Label::From),
    ("adresat", Label::To),
];

/// How the attribution line above a `>`-quoted original ends or starts (Gmail, Apple Mail,
/// Thunderbird), in lower case: `On 12 Mar 2026, at 10:00, Ann <a@b> wrote:`,
/// `Am 12.03.2026 um 10:00 schrieb Ann:`, `Le 12 mars 2026 à 10:00, Ann a écrit :` …
struct Attribution {
    /// The line starts so (empty: any start).
    starts: &'static str,
    /// The line holds these words.
    holds: &'static [&'static str],
    /// The line ends so (the colon included; a blank before it is ignored).
    ends: &'static str,
}

const ATTRIBUTIONS: &[Attribution] = &[
    // English: "On … wrote:", Thunderbird's older "Ann wrote:".
    attribution("", &[], " wrote:"),
    // German: "Am … schrieb Ann <a@b>:", older Thunderbird "Ann schrieb:".
    attribution("am ", &[" schrieb "], ":"),
    attribution("", &[], " schrieb:"),
    // French: "Le … Ann a écrit :".
    attribution("", &[], " a écrit:"),
    // Spanish: "El … Ann escribió:".
    attribution("", &[], " escribió:"),
    // Italian: "Il giorno … Ann ha scritto:".
    attribution("", &[], " ha scritto:"),
    // Dutch: "Op … schreef Ann <a@b>:", Apple's "… heeft Ann het volgende geschreven:".
    attribution("op ", &[" schreef "], ":"),
    attribution("", &[], " schreef:"),
    attribution("", &[], " het volgende geschreven:"),
    // Outlook's: "Op … heeft Ann <a@b> geschreven:".
    attribution("op ", &[" heeft "], " geschreven:"),
    // Portuguese: "Em … Ann escreveu:".
    attribution("", &[], " escreveu:"),
    // Swedish: "Den … skrev Ann <a@b>:", Apple's "12 mars 2026 kl. 10:00 skrev Ann:".
    attribution("den ", &[" skrev "], ":"),
    attribution("", &[" kl", " skrev "], ":"),
    attribution("", &[], " skrev:"),
    // Polish: Thunderbird's "W dniu … Ann pisze:", Gmail's "… Ann napisał(a):", Apple's
    // "Wiadomość napisana przez Ann w dniu …:".
    attribution("", &[], " pisze:"),
    attribution("", &[], " napisał(a):"),
    attribution("", &[], " napisał:"),
    attribution("", &[], " napisała:"),
    attribution("wiadomość napisana przez ", &[], ":"),
];

const fn attribution(
    starts: &'static str,
    holds: &'static [&'static str],
    ends: &'static str,
) -> Attribution {
    Attribution {
        starts,
        holds,
        ends,
    }
}

/// The first words of a phone's or a mail app's sign-off (`Sent from my iPhone`,
/// `Von meinem iPhone gesendet`, `Get Outlook for iOS`), in lower case.
const SIGN_OFFS: &[&str] = &[
    "sent from my ",
    "sent from outlook",
    "sent from mail for ",
    "sent from yahoo mail",
    "get outlook for ",
    "von meinem ",
    "gesendet von ",
    "gesendet mit ",
    "outlook für ",
    "envoyé de mon ",
    "envoyé depuis mon ",
    "envoyé à partir de ",
    "obtenir outlook pour ",
    "enviado desde mi ",
    "enviado desde ",
    "obtener outlook para ",
    "inviato da ",
    "inviato dal mio ",
    "scarica outlook per ",
    "verzonden met ",
    "verzonden vanaf ",
    "verstuurd vanaf ",
    "outlook voor ",
    "enviado do meu ",
    "enviado de meu ",
    "enviado a partir do ",
    "obter o outlook para ",
    "skickat från ",
    "hämta outlook för ",
    "wysłane z ",
    "wysłano z ",
    "pobierz aplikację outlook ",
];

/// What a line means to the reader of a mail, besides the commands it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Frame {
    /// A line of the sender's text.
    Text,
    /// A quoted or forwarded original starts here: nothing from here on is the sender's,
    /// not even in press.
    Original,
    /// A signature or a phone's sign-off: the commands end here; inside press it is text.
    Signature,
    /// An attribution line over a `>`-quoted original (skipped, as its quote is);
    /// `lines` is 2 when a client wrapped it onto a second line.
    Attribution { lines: usize },
}

/// What the line `norm` (normalised; `raw` as written) is, given the normalised lines after
/// it: a reply header needs the lines of its block, an attribution the line it stands over.
pub(super) fn frame<'a>(
    raw: &str,
    norm: &str,
    mut after: impl Iterator<Item = &'a str> + Clone,
) -> Frame {
    let trimmed = raw.trim_end_matches(['\r', '\n']);
    if trimmed == "-- " || trimmed == "--" {
        return Frame::Signature;
    }
    if norm.is_empty() || norm.starts_with('>') {
        return Frame::Text;
    }
    let lower = norm.to_lowercase();
    if is_sign_off(&lower) {
        return Frame::Signature;
    }
    if is_separator(&lower) || is_forward_intro(&lower) {
        return Frame::Original;
    }
    if let Some(label) = header_label(&lower) {
        // One header line is not a header (`To: …` may begin a sentence), nor are a sender
        // and a recipient (press may open with `From: the ambassador` and `To: the court`),
        // nor a subject and a date (`Subject: Peace` and `Date: Spring 1901` in press). A
        // header is a run of header lines, starting here, that names a sender and a time
        // (Outlook: From, Sent; Gmail's forward: From, Date; Apple's: From, Subject, Date;
        // Thunderbird's: Subject, Date, From), or a sender's line that goes on with another
        // label (a header a converter put on one line).
        let run = std::iter::once(Some(label))
            .chain(
                after
                    .clone()
                    .take(3)
                    .map(|l| header_label(&l.to_lowercase())),
            )
            .map_while(|l| l);
        let (mut sender, mut time) = (false, false);
        for l in run {
            sender |= l == Label::From;
            time |= l == Label::Sent;
        }
        if (sender && time) || (label == Label::From && holds_second_label(&lower)) {
            return Frame::Original;
        }
    }
    let next = after.next();
    let (attribution_lines, below) = if is_attribution(&lower) {
        (1, next)
    } else if let Some(n) = next.filter(|n| n.ends_with(':') && n.split(' ').count() <= 4)
        && is_attribution(&format!("{lower} {}", n.to_lowercase()))
        && !is_attribution(&n.to_lowercase())
    {
        (2, after.next())
    } else {
        return Frame::Text;
    };
    // The original under an attribution is `>`-quoted (and skipped line by line, so that
    // orders written below it are read); one that is not is an original all the same.
    let mut below = below.into_iter().chain(after);
    match below.find(|l| !l.is_empty()) {
        Some(l) if !l.starts_with('>') => Frame::Original,
        _ => Frame::Attribution {
            lines: attribution_lines,
        },
    }
}

/// A phone's or a mail app's sign-off (`lower`, the line in lower case): a short line of its
/// own, not a sentence that starts alike.
fn is_sign_off(lower: &str) -> bool {
    SIGN_OFFS.iter().any(|s| lower.starts_with(s)) && lower.split(' ').count() <= 8
}

/// A separator above an original: a known phrase between dashes, or a line of eight or
/// more underscores (Outlook's). `lower` is the line in lower case.
fn is_separator(lower: &str) -> bool {
    if lower.len() >= 8 && lower.chars().all(|c| c == '_') {
        return true;
    }
    if !lower.starts_with("--") {
        return false;
    }
    let phrase = lower.trim_matches(|c: char| c == '-' || c == ' ');
    SEPARATOR_PHRASES.contains(&phrase.replace('\u{2019}', "'").as_str())
}

/// Apple Mail's `Begin forwarded message:` in a language of [`FORWARD_INTROS`].
fn is_forward_intro(lower: &str) -> bool {
    lower
        .strip_suffix(':')
        .is_some_and(|l| FORWARD_INTROS.contains(&l.trim_end()))
}

/// The label a header line starts with (`Von: Ann`, `De : Ann`, `Enviado el: lunes`).
fn header_label(lower: &str) -> Option<Label> {
    HEADER_LABELS.iter().find_map(|(word, label)| {
        let rest = lower.strip_prefix(word)?;
        rest.trim_start_matches(' ')
            .starts_with(':')
            .then_some(*label)
    })
}

/// Whether a `From:` line goes on with another label after the sender (a reply header
/// that a converter put on one line: `From: Ann Sent: Monday … To: Bob Subject: orders`).
fn holds_second_label(lower: &str) -> bool {
    HEADER_LABELS
        .iter()
        .filter(|(_, l)| matches!(l, Label::Sent | Label::Subject))
        .any(|(word, _)| {
            lower.contains(&format!(" {word}: ")) || lower.contains(&format!(" {word} : "))
        })
}

/// An attribution line of [`ATTRIBUTIONS`] (`lower` in lower case). A long line is a
/// sentence, not an attribution.
fn is_attribution(lower: &str) -> bool {
    if lower.chars().count() > 240 {
        return false;
    }
    // `a écrit :` and `a écrit:` alike.
    let compact = lower.replace(" :", ":");
    ATTRIBUTIONS.iter().any(|a| {
        compact.starts_with(a.starts)
            && a.holds.iter().all(|w| compact.contains(w))
            && compact.ends_with(a.ends)
            && compact.len() > a.starts.len() + a.ends.len()
    })
}

/// Whether a line reproduces the judge's own reply or bulletin: its `::` header, an
/// `Orders standing for …:` listing, an `ERROR CODE:` or `WARNING CODE:` verdict. (An
/// `OK …` echo is one when the rest reads as a command: [`ok_echo`].)
pub(super) fn is_judge_line(norm: &str) -> bool {
    let verdict = |word: &str| {
        norm.strip_prefix(word)
            .and_then(|rest| rest.split_once(':'))
            .is_some_and(|(code, _)| {
                !code.is_empty()
                    && code
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            })
    };
    norm.starts_with(":: ")
        || (norm.starts_with("Orders standing for ") && norm.ends_with(':'))
        || verdict("ERROR ")
        || verdict("WARNING ")
}

/// The rest of an `OK …` line, the judge's echo of a command it accepted.
pub(super) fn ok_echo(norm: &str) -> Option<&str> {
    norm.strip_prefix("OK ").filter(|r| !r.trim().is_empty())
}

/// Words that may follow a unit in an order, for telling an order with a mistyped first
/// word (`Prais H`, `Amry Par S A Mar`) from prose.
const ORDER_WORDS: &[&str] = &[
    "h", "hold", "holds", "stand", "stands", "s", "sup", "supp", "support", "supports", "c",
    "convoy", "convoys", "d", "disband", "disbands", "via",
];

/// Arrows that only an order holds between words (the typographic dashes are `-` by now:
/// [`super::normalise_line`]).
const ARROWS: &[&str] = &["-", "->", "=>", "\u{2192}"];

/// Whether a line whose first word is neither a command nor a province reads as prose (a
/// greeting, a signature, a remark) rather than a command with a typo: its first word is not
/// like a command word (`command_like`, given the word in lower case: the words the judge
/// would suggest, or run on into) nor within a typo of `army`/`fleet`, no word after it is an
/// arrow, neither of the two words after it is an order word (`H`, `S`, `support`, …), and it
/// is not two words joined by a hyphen whose second is a province (`Prais-Bur`), and its first
/// word is not written in capitals (three or more). `Mit freundlichen Grüßen`, `Hi GM,` and
/// `Ben` are prose; `Prais - Bur`, `Amry Par H`, `SIGNOF` and `FOO BAR` are not.
pub(super) fn looks_like_prose(text: &str, map: &Map, command_like: impl Fn(&str) -> bool) -> bool {
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let mut words = text.split(' ');
    let Some(first) = words.next() else {
        return true;
    };
    let first_bare = bare(first);
    // A word of three or more capitals is typed as commands are (`FOO BAR`), not as prose.
    let letters = first.chars().filter(|c| c.is_alphabetic());
    if letters.clone().count() >= 3 && letters.clone().all(char::is_uppercase) {
        return false;
    }
    if !first_bare.is_empty() {
        let limit = if first_bare.chars().count() <= 5 {
            1
        } else {
            2
        };
        let near_unit = ["army", "fleet"]
            .into_iter()
            .any(|k| edit_distance_within(&first_bare, k, limit).is_some());
        if near_unit || command_like(&first.to_lowercase()) {
            return false;
        }
    }
    if let Some((_, after)) = first.rsplit_once('-')
        && map.find_province(after).is_some()
    {
        return false;
    }
    for (n, w) in words.enumerate() {
        if ARROWS.contains(&w) || (n < 2 && ORDER_WORDS.contains(&bare(w).as_str())) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests;
