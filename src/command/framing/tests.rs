//! The framing tables, one line each: reply headers, separators and attributions of the
//! common clients in nine languages, signatures, the judge's own lines, prose.

use super::*;

fn map() -> &'static Map {
    Map::standard().unwrap()
}

/// The frame of the first line of `text` (lines normalised as the parser does).
fn first(text: &str) -> Frame {
    let lines: Vec<String> = text.split('\n').map(super::super::normalise_line).collect();
    let raw = text.split('\n').next().unwrap_or("");
    frame(raw, &lines[0], lines.iter().skip(1).map(String::as_str))
}

/// `frames!(name, [(text, frame), …])`: each text's first line has that frame.
macro_rules! frames {
    ($name:ident, [$(($text:expr, $want:expr)),* $(,)?]) => {
        #[test]
        fn $name() {
            for (text, want) in [$(($text, $want)),*] {
                assert_eq!(first(text), want, "{text:?}");
            }
        }
    };
}

const ORIGINAL: Frame = Frame::Original;
const TEXT: Frame = Frame::Text;
const SIGNATURE: Frame = Frame::Signature;
const ATTRIBUTION: Frame = Frame::Attribution { lines: 1 };

frames!(
    outlook_reply_headers_in_nine_languages,
    [
        (
            "From: Judge <judge@example.org>\nSent: Thursday, March 12, 2026 10:00 AM",
            ORIGINAL
        ),
        (
            "Von: Judge <judge@example.org>\nGesendet: Donnerstag, 12. März 2026 10:00",
            ORIGINAL
        ),
        (
            "De : Judge <judge@example.org>\nEnvoyé : jeudi 12 mars 2026 10:00",
            ORIGINAL
        ),
        (
            "De: Judge <judge@example.org>\nEnviado el: jueves, 12 de marzo de 2026 10:00",
            ORIGINAL
        ),
        (
            "Da: Judge <judge@example.org>\nInviato: giovedì 12 marzo 2026 10:00",
            ORIGINAL
        ),
        (
            "Van: Judge <judge@example.org>\nVerzonden: donderdag 12 maart 2026 10:00",
            ORIGINAL
        ),
        (
            "De: Judge <judge@example.org>\nEnviada em: quinta-feira, 12 de março de 2026 10:00",
            ORIGINAL
        ),
        (
            "Från: Judge <judge@example.org>\nSkickat: den 12 mars 2026 10:00",
            ORIGINAL
        ),
        (
            "Od: Judge <judge@example.org>\nWysłano: czwartek, 12 marca 2026 10:00",
            ORIGINAL
        ),
        // The French no-break space before the colon is a blank after normalising.
        ("De\u{a0}: Judge\nEnvoyé\u{a0}: jeudi", ORIGINAL),
        // Outlook for Mac and a forward: Date instead of Sent; a forward's Subject first.
        (
            "From: Judge <judge@example.org>\nDate: Thursday, 12 March 2026 at 10:00",
            ORIGINAL
        ),
        ("Betreff: orders\nDatum: 12.03.2026\nVon: Judge", ORIGINAL),
        // Thunderbird's forward header where its sender's label is its own word.
        (
            "Oggetto: orders\nData: 12/03/2026\nMittente: Judge",
            ORIGINAL
        ),
        (
            "Temat: orders\nData: 12.03.2026\nNadawca: Judge\nAdresat: Ann",
            ORIGINAL
        ),
        (
            "Sujet : orders\nDate : 12/03/2026\nDe : Judge\nPour : Ann",
            ORIGINAL
        ),
        // Apple Mail's forward: the sender, the subject, then the date.
        (
            "From: Judge <judge@example.org>\nSubject: orders\nDate: 12 March 2026",
            ORIGINAL
        ),
        // A converter put the whole header on one line.
        (
            "From: Judge Sent: Thursday To: Ann Subject: orders",
            ORIGINAL
        ),
        (
            "Von: Judge Gesendet: Donnerstag An: Ann Betreff: Befehle",
            ORIGINAL
        ),
    ]
);

frames!(
    one_header_line_is_not_a_header,
    [
        ("From: Ann, to all", TEXT),
        ("To: everyone\nA Par - Bur", TEXT),
        ("A: Par - Bur\nF: Bre - Mao", TEXT),
        ("From: Ann\nTo: Bob", TEXT),
        (
            "From: the English ambassador\nTo: the court of France\nGreetings!",
            TEXT
        ),
        (
            "Subject: Peace in our time\nDate: Spring 1901\nLet us not fight.",
            TEXT
        ),
        ("Pour : la gloire de la France\nA Par - Bur", TEXT),
        ("Mittente: il re\nA Rom H", TEXT),
        ("Date: Spring 1901\nFrom: Ann", ORIGINAL),
    ]
);

frames!(
    separators_in_nine_languages,
    [
        ("-----Original Message-----", ORIGINAL),
        ("-----Ursprüngliche Nachricht-----", ORIGINAL),
        ("-----Message d'origine-----", ORIGINAL),
        ("-----Message d\u{2019}origine-----", ORIGINAL),
        ("-----Mensaje original-----", ORIGINAL),
        ("-----Messaggio originale-----", ORIGINAL),
        ("-----Oorspronkelijk bericht-----", ORIGINAL),
        ("-----Mensagem original-----", ORIGINAL),
        ("-----Ursprungligt meddelande-----", ORIGINAL),
        ("-----Oryginalna wiadomość-----", ORIGINAL),
        ("-------- Original Message --------", ORIGINAL),
        ("-------- Weitergeleitete Nachricht --------", ORIGINAL),
        ("---------- Forwarded message ---------", ORIGINAL),
        ("---------- Message transféré ---------", ORIGINAL),
        ("-------- Mensagem reencaminhada --------", ORIGINAL),
        ("--- Treść przekazanej wiadomości ---", ORIGINAL),
        ("________________________________", ORIGINAL),
        ("Begin forwarded message:", ORIGINAL),
        ("Anfang der weitergeleiteten Nachricht:", ORIGINAL),
        ("Début du message réexpédié :", ORIGINAL),
        // A heading of the player's own is not a separator.
        ("----- Spring 1901 -----", TEXT),
        ("-----", TEXT),
    ]
);

/// An attribution over a `>`-quoted original is skipped; one over an original that is not
/// quoted starts it.
const QUOTED: &str = "\n\n> OK F Lon - ENG";
const UNQUOTED: &str = "\nOK F Lon - ENG";

#[test]
fn attributions_of_three_clients_in_nine_languages() {
    let lines = [
        // English: Gmail, Apple Mail, Thunderbird.
        "On Thu, Mar 12, 2026 at 10:00 AM Judge <judge@example.org> wrote:",
        "On 12 Mar 2026, at 10:00, Judge <judge@example.org> wrote:",
        "On 12/03/2026 10:00, Judge wrote:",
        // German
        "Am Do., 12. März 2026 um 10:00 Uhr schrieb Judge <judge@example.org>:",
        "Am 12.03.2026 um 10:00 schrieb Judge:",
        // French
        "Le jeu. 12 mars 2026 à 10:00, Judge <judge@example.org> a écrit :",
        "Le 12/03/2026 à 10:00, Judge a écrit\u{a0}:",
        // Spanish
        "El jue, 12 mar 2026 a las 10:00, Judge (<judge@example.org>) escribió:",
        "El 12/3/26 a las 10:00, Judge escribió:",
        // Italian
        "Il giorno gio 12 mar 2026 alle ore 10:00 Judge <judge@example.org> ha scritto:",
        "Il 12/03/2026 10:00, Judge ha scritto:",
        // Dutch
        "Op do 12 mrt 2026 om 10:00 schreef Judge <judge@example.org>:",
        "Op 12 mrt. 2026 om 10:00 heeft Judge <judge@example.org> het volgende geschreven:",
        "Op 12 mrt. 2026 10:00 heeft Judge <judge@example.org> geschreven:",
        // Portuguese
        "Em qui., 12 de mar. de 2026 às 10:00, Judge <judge@example.org> escreveu:",
        "Em 12/03/2026 10:00, Judge escreveu:",
        // Swedish
        "Den tors 12 mars 2026 kl 10:00 skrev Judge <judge@example.org>:",
        "12 mars 2026 kl. 10:00 skrev Judge <judge@example.org>:",
        // Polish
        "W dniu 12.03.2026 o 10:00, Judge pisze:",
        "czw., 12 mar 2026 o 10:00 Judge <judge@example.org> napisał(a):",
        "Wiadomość napisana przez Judge <judge@example.org> w dniu 12.03.2026, o godz. 10:00:",
    ];
    for l in lines {
        assert_eq!(first(&format!("{l}{QUOTED}")), ATTRIBUTION, "{l}");
        assert_eq!(first(&format!("{l}{UNQUOTED}")), ORIGINAL, "{l}");
    }
}

frames!(
    a_wrapped_attribution_is_two_lines,
    [
        (
            "On Thu, Mar 12, 2026 at 10:00 AM Judge <judge@example.org>\nwrote:\n\n> OK",
            Frame::Attribution { lines: 2 }
        ),
        (
            "Am Do., 12. März 2026 um 10:00 Uhr schrieb Judge\n<judge@example.org>:\n> OK",
            Frame::Attribution { lines: 2 }
        ),
        ("A Par - Bur\nAnn wrote:\n> OK", TEXT),
    ]
);

frames!(
    signatures_and_sign_offs,
    [
        ("-- ", SIGNATURE),
        ("--", SIGNATURE),
        ("Sent from my iPhone", SIGNATURE),
        ("Von meinem iPhone gesendet", SIGNATURE),
        ("Envoyé de mon iPhone", SIGNATURE),
        ("Enviado desde mi iPhone", SIGNATURE),
        ("Inviato da iPhone", SIGNATURE),
        ("Verzonden met mijn Galaxy", SIGNATURE),
        ("Enviado do meu iPhone", SIGNATURE),
        ("Skickat från min iPhone", SIGNATURE),
        ("Wysłane z iPhone'a", SIGNATURE),
        ("Get Outlook for Android", SIGNATURE),
        (
            "Von meinem Standpunkt aus ist Burgund wichtig, und zwar sehr, sehr wichtig",
            TEXT
        ),
        ("--- ", TEXT),
    ]
);

#[test]
fn the_judges_own_lines() {
    for l in [
        ":: Judge: DIP  Game: demo  Variant: Standard",
        ":: Deadline: S1901M Wed Nov 04 2026 10:07:00 +0000",
        "Orders standing for England in demo (S1901M):",
        "ERROR UNKNOWN-COMMAND: line 12: \"Thanks,\": \"Thanks,\" is not a command",
        "WARNING SS-W1: something",
    ] {
        assert!(is_judge_line(l), "{l}");
    }
    for l in [
        "ERROR: I made a mistake",
        "Orders standing for now",
        "::",
        "OK F Lon - ENG",
        "Error UNKNOWN: x",
    ] {
        assert!(!is_judge_line(l), "{l}");
    }
    assert_eq!(ok_echo("OK F Lon - ENG"), Some("F Lon - ENG"));
    assert_eq!(ok_echo("OK, here are my orders"), None);
    assert_eq!(ok_echo("OK"), None);
}

#[test]
fn prose_and_mistyped_commands() {
    let near =
        |w: &str| w.trim_end_matches(',') == "signof" || w.starts_with("signon") || w == "foo";
    for l in [
        "Mit freundlichen Grüßen",
        "Viele Grüße aus Wien",
        "Hi GM,",
        "Thanks!",
        "Ben",
        "Cordialement,",
        "Un saluto",
        "Met vriendelijke groet",
        "Hey,",
        "Atenciosamente",
        "Med vänliga hälsningar",
        "Pozdrawiam",
        "Hans-Peter",
        "Thanks for your support!",
        "— Anna",
        "**********",
    ] {
        assert!(looks_like_prose(l, map(), near), "{l}");
    }
    for l in [
        "Prais - Bur",
        "Prais-Bur",
        "Prais H",
        "Amry Par - Bur",
        "Amry Par S A Mar",
        "Flet Bre H",
        "SIGNOF",
        "FOO BAR",
        "SIGNON,Ealpha,Secret32",
        "Lodnon -> Nth",
    ] {
        assert!(!looks_like_prose(l, map(), near), "{l}");
    }
}
