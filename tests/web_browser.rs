//! The web view in a real browser (issue 30): headless Chromium (Debian's `chromium`, in
//! its own `--headless` mode: `--dump-dom` gives the document as the browser built it,
//! `--screenshot` the page as drawn) opens the game list and the page of a game played by
//! mail, steps to a phase by the timeline's link, and the phase's results read exactly as
//! the bulletin; the screenshot (kept as `target/web-browser/game-page.png`) shows the map
//! drawn; a player's private page shows the press it received and not another's.
//! Runs when `DIPJUDGE_BROWSER=1` (`scripts/test.sh` sets it and installs Chromium);
//! skipped otherwise.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dipjudge::map::Power;

use crate::scratch::player;
use crate::web::{played, server, token_for};

fn browser_expected() -> bool {
    std::env::var("DIPJUDGE_BROWSER").is_ok_and(|v| v == "1")
}

/// Runs headless Chromium with `args` then `url`; its standard output.
fn chromium(profile: &Path, args: &[&str], url: &str) -> String {
    let out = std::env::temp_dir().join(format!(
        "dipjudge-chromium-{}-{}.out",
        std::process::id(),
        profile.file_name().and_then(|n| n.to_str()).unwrap_or("p")
    ));
    let file = std::fs::File::create(&out).expect("output file");
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(file)
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium runs (apt-get install chromium)");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "chromium failed on {url}: {status}");
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium did not finish {url} in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::read_to_string(&out).unwrap_or_default()
}

/// The text of the first `<pre class="bulletin">` after `<h3>subject</h3>` in `dom`, as
/// the reader reads it.
fn bulletin_text(dom: &str, subject: &str) -> Option<String> {
    let head = format!("<h3>{subject}</h3>");
    let rest = dom.split_once(&head)?.1;
    let pre = rest.split_once("<pre class=\"bulletin\">")?.1;
    let text = pre.split_once("</pre>")?.0;
    Some(
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
}

/// The share of a PNG's pixels in the board's sea colour (`#C4D7E4`).
fn sea_share(png: &Path) -> f64 {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png).expect("screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()].chunks(channels);
    let total = (info.width * info.height) as f64;
    let sea = pixels
        .filter(|p| p.len() >= 3 && p[0] == 0xC4 && p[1] == 0xD7 && p[2] == 0xE4)
        .count() as f64;
    sea / total
}

#[test]
fn web_pages_in_headless_chromium() {
    if !browser_expected() {
        eprintln!("note: DIPJUDGE_BROWSER is not 1: skipping the browser test");
        return;
    }
    let (scratch, mut judge) = played();
    let server = server(&scratch.database());
    let root = format!("http://{}", server.addr());
    let profiles = scratch.dir.join("chromium");
    let profile = |n: &str| -> PathBuf { profiles.join(n) };

    // The list links the game.
    let list = chromium(&profile("list"), &["--dump-dom"], &format!("{root}/"));
    assert!(list.contains("href=\"/game/webgame\""), "{list}");

    // The game page: its timeline links the phase; step to it.
    let game = chromium(
        &profile("game"),
        &["--dump-dom"],
        &format!("{root}/game/webgame"),
    );
    let link = game
        .split("href=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next())
        .find(|h| h.ends_with("/phase/S1901M"))
        .expect("a timeline link to S1901M")
        .to_string();
    let phase = chromium(&profile("phase"), &["--dump-dom"], &format!("{root}{link}"));
    assert!(phase.contains("<svg"), "the map is in the page");
    // The results read as the bulletin the history keeps (what everyone received).
    let history = judge.history("webgame").unwrap();
    let results = history
        .iter()
        .find(|h| h.subject.ends_with("S1901M Results"))
        .expect("the results in the history");
    let shown = bulletin_text(&phase, &results.subject).expect("the results in the page");
    assert_eq!(shown, results.body, "the page's results are the bulletin's");

    // The screenshot shows the map drawn (the board's sea over a good part of it).
    // Taken in the test's own directory, then kept under target/ by a rename, so two runs
    // of the suite at once never read each other's half-written picture.
    let shot = scratch.dir.join("game-page.png");
    chromium(
        &profile("shot"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,1400",
        ],
        &format!("{root}{link}"),
    );
    let share = sea_share(&shot);
    assert!(
        share > 0.10,
        "the map is drawn: {share:.3} of the screenshot is sea"
    );
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/web-browser");
    std::fs::create_dir_all(&dir).unwrap();
    let kept = dir.join("game-page.png");
    let staged = dir.join(format!("game-page.{}.png", std::process::id()));
    std::fs::copy(&shot, &staged).unwrap();
    std::fs::rename(&staged, &kept).unwrap();
    eprintln!("screenshot: {} ({:.0}% sea)", kept.display(), share * 100.0);

    // A private page shows its reader's press, and no one else's.
    let f = token_for(&mut judge, &player("webgame", Power::France));
    let g = token_for(&mut judge, &player("webgame", Power::Germany));
    let france = chromium(
        &profile("france"),
        &["--dump-dom"],
        &format!("{root}/view/{f}/record"),
    );
    assert!(france.contains("SECRET-ENGLAND-TO-FRANCE"));
    let germany = chromium(
        &profile("germany"),
        &["--dump-dom"],
        &format!("{root}/view/{g}/record"),
    );
    assert!(germany.contains("Your page as Germany"));
    assert!(!germany.contains("SECRET-ENGLAND-TO-FRANCE"));
    server.stop();
}
