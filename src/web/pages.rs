//! The HTML of the web view, as maud templates: every interpolated string (game names,
//! bulletins, press: anything a player wrote) is escaped by maud; the only markup taken as
//! is is the judge's own SVG of a phase (drawn by `picture`, which escapes its text).
//! Pages work without JavaScript; `step.js` adds keyboard stepping through the phases.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::view::{GameView, ListedGame, Page, PhaseView};

/// The style sheet (served as `/static/site.css`: the content security policy allows no
/// inline style).
pub const CSS: &str =
    "body{font-family:sans-serif;margin:0 auto;max-width:1200px;padding:0 1em;color:#222}
nav.timeline{display:flex;flex-wrap:wrap;gap:.3em;margin:1em 0}
nav.timeline a{padding:.2em .5em;border:1px solid #8FAFC6;border-radius:3px;text-decoration:none}
nav.timeline a[aria-current]{background:#C4D7E4;font-weight:bold}
.map svg{max-width:100%;height:auto;display:block}
pre{white-space:pre-wrap;background:#f6f6f2;padding:.6em;border-left:3px solid #8FAFC6}
pre.press{border-left-color:#c9a227}
table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left}
.seat{background:#fff4d0;padding:.4em}
.summary{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}
.phase{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:0 1.5em;align-items:start}
.phase>h2{grid-column:1/-1}.phase figure{margin:0}
.texts pre{font-size:.85em;max-height:80vh;overflow:auto}
@media (max-width:900px){.phase{display:block}}";

/// Keyboard stepping: left and right arrows follow the page's previous and next links.
pub const STEP_JS: &str = "document.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey)return;var r=e.key==='ArrowLeft'?'prev':e.key==='ArrowRight'?'next':null;if(!r)return;var a=document.querySelector('a[rel='+r+']');if(a){location.href=a.href;}});";

fn page(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) }
                link rel="stylesheet" href="/static/site.css";
                script src="/static/step.js" defer {}
            }
            body { (body) }
        }
    }
}

/// A page of the list of games; with more than one page, where it is and links to the
/// pages beside it.
pub fn list(judge: &str, list: &Page<ListedGame>) -> Markup {
    let games = &list.items;
    let paged = list.pages > 1;
    page(
        &format!("{judge}: games"),
        html! {
            h1 { (judge) ": games" }
            @if paged {
                nav.pages {
                    "Page " (list.page) " of " (list.pages) " (" (list.total) " games, by name)"
                    @if list.page > 1 {
                        " " a href={ "/?page=" (list.page - 1) } rel="prev" { "previous" }
                    }
                    @if list.page < list.pages {
                        " " a href={ "/?page=" (list.page + 1) } rel="next" { "next" }
                    }
                }
            }
            @if games.is_empty() {
                p { "No games yet." }
            } @else {
                table {
                    thead { tr { th { "game" } th { "rules" } th { "phase" } th { "status" } } }
                    tbody {
                        @for g in games {
                            tr {
                                td { a href={ "/game/" (g.name) } { (g.name) } }
                                td { (g.variant) }
                                td { (g.phase.as_deref().unwrap_or("")) }
                                td { (g.status) }
                            }
                        }
                    }
                }
            }
        },
    )
}

fn phase_block(p: &PhaseView) -> Markup {
    html! {
        section.phase id=(p.name) {
            h2 { (p.name) }
            @if let Some(svg) = &p.svg {
                figure.map { (PreEscaped(svg)) }
            }
            div.texts {
                @for (subject, text) in &p.bulletins {
                    h3 { (subject) }
                    pre.bulletin { (text) }
                }
                @if !p.press.is_empty() {
                    h3 { "Press" }
                    @for (subject, text) in &p.press {
                        h4 { (subject) }
                        pre.press { (text) }
                    }
                }
            }
        }
    }
}

/// A game page: the facts, the timeline, one phase (`shown`: an index into the phases),
/// or every phase (`None`: the whole record), and the centre chart. `base` is where the
/// page's own links start (`/game/NAME` or `/view/TOKEN`).
pub fn game(judge: &str, g: &GameView, base: &str, shown: Option<usize>) -> Markup {
    let title = format!("{judge}: {}", g.name);
    page(
        &title,
        html! {
            p { a href="/" { "all games" } }
            h1 { (g.name) }
            @if let Some(seat) = &g.seat {
                p.seat { "Your page as " (seat) ": it shows what your mails show you. Keep its address to yourself." }
            }
            div.summary {
            table.facts {
                tr { th { "rules" } td { (g.variant) } }
                tr { th { "status" } td { (g.status) } }
                @if let Some(p) = &g.phase_now { tr { th { "phase now" } td { (p) } } }
                @if let Some(d) = &g.deadline { tr { th { "deadline" } td { (d) } } }
            }
            @if !g.centres.is_empty() {
                table.centres {
                    caption { "Supply centres" }
                    @for (power, n) in &g.centres { tr { td { (power) } td { (n) } } }
                }
            }
            }
            @if let (Some(seat), Some(phase)) = (&g.seat, &g.phase_now) {
                @if !g.standing.is_empty() {
                    h2 { "Orders standing for " (seat) " in " (phase) }
                    pre.standing { @for o in &g.standing { (o) "\n" } }
                }
            }
            @if g.closed {
                p { "This game's history is open to its players and master only." }
            }
            @if !g.phases.is_empty() {
                nav.timeline aria-label="phases" {
                    @for (i, p) in g.phases.iter().enumerate() {
                        @if shown == Some(i) {
                            a href={ (base) "/phase/" (p.name) } aria-current="page" { (p.name) }
                        } @else {
                            a href={ (base) "/phase/" (p.name) } { (p.name) }
                        }
                    }
                    a href={ (base) "/record" } { "whole record" }
                }
            }
            @match shown {
                Some(i) => {
                    nav.step {
                        @if let Some(prev) = i.checked_sub(1).and_then(|j| g.phases.get(j)) {
                            a rel="prev" href={ (base) "/phase/" (prev.name) } { "← " (prev.name) }
                            " "
                        }
                        @if let Some(next) = g.phases.get(i + 1) {
                            a rel="next" href={ (base) "/phase/" (next.name) } { (next.name) " →" }
                        }
                    }
                    @if let Some(p) = g.phases.get(i) { (phase_block(p)) }
                }
                None => {
                    @for p in &g.phases { (phase_block(p)) }
                }
            }
            @if let Some(chart) = &g.chart {
                section.chart {
                    h2 { "Supply centres by year" }
                    figure.map { (PreEscaped(chart)) }
                }
            }
        },
    )
}

/// A page for a request the server cannot answer (unknown game, phase or token).
pub fn not_found() -> Markup {
    page(
        "Not found",
        html! {
            h1 { "Not found" }
            p { "No such page. A private link stops working when its seat changes hands or its password changes; the next mail carries a new one." }
            p { a href="/" { "all games" } }
        },
    )
}
