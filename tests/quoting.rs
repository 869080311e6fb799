//! Quoted replies in the mail clients and languages of the judge's players (issue 38): a
//! player answers the judge's reply with two new orders above a quote of it, the quote
//! holding the judge's own `OK` lines and `Orders standing` listing. Whatever the client
//! (Outlook's header, with and without its separator line; Gmail's, Thunderbird's and Apple
//! Mail's attribution over a `>`-quoted original; a web mailer's attribution over an original
//! it did not quote; the judge's reply pasted with no header at all) and whatever the
//! language (English, German, French, Spanish, Italian, Dutch, Portuguese, Swedish, Polish),
//! only the two orders written above the quote change, and the greeting and the closing
//! around them draw no error. A quoted `SIGNON` from an announcement signs nobody in.

use dipjudge::map::Power;
use dipjudge::rules::PowerOrder;

use crate::desk::{self, Desk};

const GM: &str = "gm@example.test";
const JUDGE: &str = "DIP Judge <judge@example.test>";

fn addr(p: Power) -> String {
    format!("{}@example.test", p.name().to_lowercase())
}

/// England's orders before the reply: the judge's answer to them is what is quoted.
const FIRST: &str = "F Edi - Nwg\nF Lon - Nth\nA Lvp - Yor";
/// The two orders the reply gives, above the quote.
const NEW: &str = "F Lon - Eng\nA Lvp - Wal";
/// England's orders after the reply (sorted): Edinburgh's as before, the two new ones.
const AFTER: [&str; 3] = ["A Lvp - Wal", "F Edi - NWG", "F Lon - ENG"];

/// How one language's clients write their reply headers and greetings.
struct Language {
    name: &'static str,
    greeting: &'static str,
    closing: &'static str,
    /// Outlook's separator line, and its header block (From, Sent, To, Subject).
    separator: &'static str,
    outlook: [&'static str; 4],
    /// Gmail's, Thunderbird's and Apple Mail's attribution lines.
    gmail: &'static str,
    thunderbird: &'static str,
    apple: &'static str,
}

const LANGUAGES: &[Language] = &[
    Language {
        name: "English",
        greeting: "Hi GM,",
        closing: "Best regards,",
        separator: "-----Original Message-----",
        outlook: [
            "From: DIP Judge <judge@example.test>",
            "Sent: Thursday, March 12, 2026 10:00 AM",
            "To: England <england@example.test>",
            "Subject: Re: orders",
        ],
        gmail: "On Thu, Mar 12, 2026 at 10:00 AM DIP Judge <judge@example.test> wrote:",
        thunderbird: "On 12/03/2026 10:00, DIP Judge wrote:",
        apple: "On 12 Mar 2026, at 10:00, DIP Judge <judge@example.test> wrote:",
    },
    Language {
        name: "German",
        greeting: "Hallo Spielleiter,",
        closing: "Mit freundlichen Grüßen",
        separator: "-----Ursprüngliche Nachricht-----",
        outlook: [
            "Von: DIP Judge <judge@example.test>",
            "Gesendet: Donnerstag, 12. März 2026 10:00",
            "An: England <england@example.test>",
            "Betreff: AW: orders",
        ],
        gmail: "Am Do., 12. März 2026 um 10:00 Uhr schrieb DIP Judge <judge@example.test>:",
        thunderbird: "Am 12.03.2026 um 10:00 schrieb DIP Judge:",
        apple: "Am 12.03.2026 um 10:00 schrieb DIP Judge <judge@example.test>:",
    },
    Language {
        name: "French",
        greeting: "Bonjour,",
        closing: "Cordialement,",
        separator: "-----Message d'origine-----",
        outlook: [
            "De\u{a0}: DIP Judge <judge@example.test>",
            "Envoyé\u{a0}: jeudi 12 mars 2026 10:00",
            "À\u{a0}: England <england@example.test>",
            "Objet\u{a0}: RE: orders",
        ],
        gmail: "Le jeu. 12 mars 2026 à 10:00, DIP Judge <judge@example.test> a écrit :",
        thunderbird: "Le 12/03/2026 à 10:00, DIP Judge a écrit\u{a0}:",
        apple: "Le 12 mars 2026 à 10:00, DIP Judge <judge@example.test> a écrit :",
    },
    Language {
        name: "Spanish",
        greeting: "Hola,",
        closing: "Saludos,",
        separator: "-----Mensaje original-----",
        outlook: [
            "De: DIP Judge <judge@example.test>",
            "Enviado el: jueves, 12 de marzo de 2026 10:00",
            "Para: England <england@example.test>",
            "Asunto: RE: orders",
        ],
        gmail: "El jue, 12 mar 2026 a las 10:00, DIP Judge (<judge@example.test>) escribió:",
        thunderbird: "El 12/3/26 a las 10:00, DIP Judge escribió:",
        apple: "El 12 mar 2026, a las 10:00, DIP Judge <judge@example.test> escribió:",
    },
    Language {
        name: "Italian",
        greeting: "Ciao,",
        closing: "Un saluto",
        separator: "-----Messaggio originale-----",
        outlook: [
            "Da: DIP Judge <judge@example.test>",
            "Inviato: giovedì 12 marzo 2026 10:00",
            "A: England <england@example.test>",
            "Oggetto: R: orders",
        ],
        gmail: "Il giorno gio 12 mar 2026 alle ore 10:00 DIP Judge <judge@example.test> ha scritto:",
        thunderbird: "Il 12/03/2026 10:00, DIP Judge ha scritto:",
        apple: "Il giorno 12 mar 2026, alle ore 10:00, DIP Judge <judge@example.test> ha scritto:",
    },
    Language {
        name: "Dutch",
        greeting: "Hallo,",
        closing: "Met vriendelijke groet,",
        separator: "-----Oorspronkelijk bericht-----",
        outlook: [
            "Van: DIP Judge <judge@example.test>",
            "Verzonden: donderdag 12 maart 2026 10:00",
            "Aan: England <england@example.test>",
            "Onderwerp: RE: orders",
        ],
        gmail: "Op do 12 mrt 2026 om 10:00 schreef DIP Judge <judge@example.test>:",
        thunderbird: "Op 12-03-2026 om 10:00 schreef DIP Judge:",
        apple: "Op 12 mrt. 2026 om 10:00 heeft DIP Judge <judge@example.test> het volgende geschreven:",
    },
    Language {
        name: "Portuguese",
        greeting: "Olá,",
        closing: "Atenciosamente,",
        separator: "-----Mensagem original-----",
        outlook: [
            "De: DIP Judge <judge@example.test>",
            "Enviada em: quinta-feira, 12 de março de 2026 10:00",
            "Para: England <england@example.test>",
            "Assunto: RE: orders",
        ],
        gmail: "Em qui., 12 de mar. de 2026 às 10:00, DIP Judge <judge@example.test> escreveu:",
        thunderbird: "Em 12/03/2026 10:00, DIP Judge escreveu:",
        apple: "Em 12 de mar. de 2026, à(s) 10:00, DIP Judge <judge@example.test> escreveu:",
    },
    Language {
        name: "Swedish",
        greeting: "Hej,",
        closing: "Med vänliga hälsningar",
        separator: "-----Ursprungligt meddelande-----",
        outlook: [
            "Från: DIP Judge <judge@example.test>",
            "Skickat: den 12 mars 2026 10:00",
            "Till: England <england@example.test>",
            "Ämne: SV: orders",
        ],
        gmail: "Den tors 12 mars 2026 kl 10:00 skrev DIP Judge <judge@example.test>:",
        thunderbird: "Den 2026-03-12 kl. 10:00, skrev DIP Judge:",
        apple: "12 mars 2026 kl. 10:00 skrev DIP Judge <judge@example.test>:",
    },
    Language {
        name: "Polish",
        greeting: "Cześć,",
        closing: "Pozdrawiam",
        separator: "-----Oryginalna wiadomość-----",
        outlook: [
            "Od: DIP Judge <judge@example.test>",
            "Wysłano: czwartek, 12 marca 2026 10:00",
            "Do: England <england@example.test>",
            "Temat: RE: orders",
        ],
        gmail: "czw., 12 mar 2026 o 10:00 DIP Judge <judge@example.test> napisał(a):",
        thunderbird: "W dniu 12.03.2026 o 10:00, DIP Judge pisze:",
        apple: "Wiadomość napisana przez DIP Judge <judge@example.test> w dniu 12.03.2026, o godz. 10:00:",
    },
];

/// `text` with each line quoted `> ` (`>` alone for a blank line), as the clients quote.
fn quoted(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ways a reply puts the judge's answer (`original`) under the sender's text.
fn quotes(l: &Language, original: &str) -> Vec<(&'static str, String)> {
    let header = l.outlook.join("\n");
    vec![
        (
            "Outlook, plain text",
            format!("{}\n{header}\n\n{original}", l.separator),
        ),
        (
            "Outlook, HTML turned into text",
            format!("{header}\n\n{original}"),
        ),
        ("Gmail", format!("{}\n\n{}", l.gmail, quoted(original))),
        (
            "Thunderbird",
            format!("{}\n{}", l.thunderbird, quoted(original)),
        ),
        ("Apple Mail", format!("{}\n\n{}", l.apple, quoted(original))),
        (
            "a web mailer that does not quote",
            format!("{}\n\n{original}", l.gmail),
        ),
    ]
}

/// A running standard game; England's player writes from `england@example.test`.
fn running(name: &str) -> desk::Table {
    let now = desk::utc(2026, 3, 12, 9, 0);
    let mut t = desk::Table::new(Desk::new(name, now), name, GM, addr);
    t.start();
    t
}

/// England's orders in the game, in the judge's short form, sorted.
fn englands_orders(t: &mut desk::Table) -> Vec<String> {
    let g = t.game();
    let mut v: Vec<String> = g
        .orders_of(Power::England)
        .iter()
        .map(|o: &PowerOrder| o.order.display(t.map))
        .collect();
    v.sort();
    v
}

/// Nine languages, six ways of quoting: each time England orders [`FIRST`], then answers
/// the judge's reply with [`NEW`] above its quote, a greeting before and a closing after.
#[test]
fn only_the_orders_above_a_quoted_reply_count() {
    let mut t = running("quoted");
    let signon = format!("SIGNON E{} {}", t.name, desk::password(Power::England));
    let mut failures = Vec::new();
    let mut replies = 0;
    for l in LANGUAGES {
        let first = t.mail_from(Power::England, &format!("{signon}\n{FIRST}"));
        assert!(first.contains("Orders standing for England"), "{first}");
        for (client, quote) in quotes(l, &first) {
            // The judge's answer to the first orders is quoted: set the first orders again.
            let again = t.mail_from(Power::England, &format!("{signon}\n{FIRST}"));
            assert!(!again.contains("ERROR"), "{again}");
            let body = format!(
                "{}\n\n{signon}\n{NEW}\n\n{}\nAnna\n\n{quote}\n",
                l.greeting, l.closing
            );
            let reply = t.mail_from(Power::England, &body);
            replies += 1;
            let orders = englands_orders(&mut t);
            let oks = reply.lines().filter(|r| r.starts_with("OK ")).count();
            if orders != AFTER || reply.contains("ERROR") || oks != 3 {
                failures.push(format!(
                    "{} {client}: orders {orders:?}\n--- mail\n{body}--- reply\n{reply}",
                    l.name
                ));
            }
        }
    }
    assert_eq!(replies, 54);
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// The judge's reply pasted under new orders with no header at all (a client that dropped
/// it, a player who copied the reply): its first `OK` line ends what the judge reads, and
/// so does an `Orders standing` listing or an `ERROR` line.
#[test]
fn the_judges_own_reply_ends_the_mail() {
    let mut t = running("pasted");
    let signon = format!("SIGNON E{} {}", t.name, desk::password(Power::England));
    let first = t.mail_from(Power::England, &format!("{signon}\n{FIRST}"));
    let standing = first
        .split_once("Orders standing")
        .map(|(_, s)| format!("Orders standing{s}"))
        .expect("the standing orders");
    let error = "ERROR UNKNOWN-PROVINCE: line 4: \"A Lvp - Yrk\": no province called \"Yrk\"";
    for tail in [first.clone(), standing, format!("{error}\n{FIRST}")] {
        t.mail_from(Power::England, &format!("{signon}\n{FIRST}"));
        let reply = t.mail_from(Power::England, &format!("{signon}\n{NEW}\n\n{tail}"));
        assert_eq!(englands_orders(&mut t), AFTER, "{tail}\n--- reply\n{reply}");
        assert!(!reply.contains("ERROR"), "{reply}");
    }
}

/// A player answers the master's announcement from German Outlook: the quoted
/// `SIGNON ?kaiser yourpassword` under the header is not read, so nobody joins with the
/// announcement's password; the same line written above the quote joins.
#[test]
fn a_quoted_signon_from_an_announcement_signs_nobody_in() {
    let now = desk::utc(2026, 3, 12, 9, 0);
    let mut t = desk::Table::new(Desk::new("kaiser", now), "kaiser", GM, addr);
    t.create("");
    let announcement = format!(
        "Von: Spielleiter <{GM}>\nGesendet: Donnerstag, 12. März 2026 10:00\nAn: diplomacy-liste@example.test\nBetreff: Neues Spiel kaiser\n\nHallo zusammen,\nwer mitspielen will, schickt dem Judge ({JUDGE}):\n\nSIGNON ?kaiser yourpassword\n\nViele Grüße\nder Spielleiter\n"
    );
    let reply = t.mail(
        "neu@example.test",
        &format!("Ich bin dabei!\n\n{announcement}"),
    );
    assert!(!reply.contains("OK SIGNON"), "{reply}");
    assert!(t.game().joiners().is_empty(), "{reply}");
    let reply = t.mail(
        "neu@example.test",
        &format!("SIGNON ?kaiser mein-eigenes-passwort\n\n{announcement}"),
    );
    assert!(reply.contains("OK SIGNON"), "{reply}");
    assert_eq!(t.game().joiners().len(), 1, "{reply}");
}

/// A password typed with a typographic apostrophe or dash (a phone's or word processor's
/// "smart" punctuation) is the password typed in ASCII.
#[test]
fn a_typographic_apostrophe_or_dash_in_a_password_is_ascii() {
    let mut t = running("smart");
    let signon = format!("SIGNON E{} {}", t.name, desk::password(Power::England));
    let r = t.mail_from(
        Power::England,
        &format!("{signon}\nSET PASSWORD d'Artagnan-1844"),
    );
    assert!(r.contains("OK SET PASSWORD"), "{r}");
    let name = t.name.clone();
    for typed in [
        "d\u{2019}Artagnan\u{2013}1844",
        "d\u{2018}Artagnan\u{2014}1844",
        "d'Artagnan-1844",
    ] {
        let r = t.mail_from(Power::England, &format!("SIGNON E{name} {typed}\nA Lvp H"));
        assert!(
            r.contains("OK SIGNON") && r.contains("OK A Lvp H"),
            "{typed}: {r}"
        );
    }
}

/// A results listing pasted back: England's own lines are its orders; another power's line
/// is refused with the unit check's sentence.
#[test]
fn a_pasted_results_listing_gives_the_orders_it_shows() {
    let mut t = running("listing");
    let signon = format!("SIGNON E{} {}", t.name, desk::password(Power::England));
    let r = t.mail_from(
        Power::England,
        &format!(
            "{signon}\nEngland: Fleet Edinburgh -> Norwegian Sea.\nEngland: Fleet London -> English Channel.  (*bounce*)\nEngland: Army Liverpool HOLD.\nAustria: Army Budapest -> Serbia.\n"
        ),
    );
    assert_eq!(
        englands_orders(&mut t),
        ["A Lvp H", "F Edi - NWG", "F Lon - ENG"],
        "{r}"
    );
    assert!(
        r.contains("ERROR FOREIGN-UNIT: line 5: \"Austria: Army Budapest -> Serbia.\": the unit in Budapest belongs to Austria, not to England"),
        "{r}"
    );
}
