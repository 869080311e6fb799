//! The centre chart: each power's supply-centre count at the end of each year, one line a
//! power in its colour, drawn as SVG like the board (and rasterised the same way).
//!
//! A year's count is the centres as they stood once its Fall was over (ownership changes
//! only then): the count in the first position whose phase is that year's Winter or
//! later. The chart starts with the game's first position (`start`: the home centres).

use crate::map::Power;
use crate::rules::{Position, Season};

use super::board::Point;
use super::palette;
use super::png::FONT_FAMILY;
use super::svg::{N, Svg};

/// What the chart shows.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Chart {
    /// The title line (`concert - supply centres at the end of each year`).
    pub title: String,
    /// The x axis, one label a column: `start`, then the years.
    pub columns: Vec<String>,
    /// One line a power, a count a column.
    pub lines: Vec<ChartLine>,
    /// The centres a solo victory needs (a dashed line across), if the game has such a
    /// number.
    pub to_win: Option<u16>,
}

/// One power's counts.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChartLine {
    pub power: Power,
    pub counts: Vec<u16>,
}

impl Chart {
    /// The chart of a game's positions, in the order they were played (the start of each
    /// phase, and the position after the last one processed): a column for the first
    /// position, then one for each year whose Fall is over.
    pub fn of_positions<'a>(
        title: String,
        positions: impl IntoIterator<Item = &'a Position>,
        to_win: Option<u16>,
    ) -> Chart {
        // The last year whose Fall was over when a position was reached: the year itself
        // from its Winter on, the year before until then.
        let completed = |p: &Position| match p.phase.season {
            Season::Winter => p.phase.year,
            Season::Spring | Season::Fall => p.phase.year.saturating_sub(1),
        };
        let count =
            |p: &Position, power: Power| u16::try_from(p.centre_count(power)).unwrap_or(u16::MAX);
        let mut columns: Vec<String> = Vec::new();
        let mut counts: Vec<Vec<u16>> = vec![Vec::new(); Power::ALL.len()];
        let mut last_year: Option<u16> = None;
        for p in positions {
            let year = completed(p);
            let label = match last_year {
                None => "start".to_string(),
                Some(y) if year > y => year.to_string(),
                Some(_) => continue,
            };
            last_year = Some(year);
            columns.push(label);
            for (power, line) in Power::ALL.iter().zip(counts.iter_mut()) {
                line.push(count(p, *power));
            }
        }
        Chart {
            title,
            columns,
            lines: Power::ALL
                .iter()
                .zip(counts)
                .map(|(power, counts)| ChartLine {
                    power: *power,
                    counts,
                })
                .collect(),
            to_win,
        }
    }
}

/// The canvas.
const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 540.0;
/// The title band, as on the board's picture.
const BAND: f64 = 36.0;
/// The plot's edges.
const LEFT: f64 = 56.0;
const RIGHT: f64 = WIDTH - 150.0;
const TOP: f64 = BAND + 28.0;
const BOTTOM: f64 = HEIGHT - 48.0;
/// Lines of equal counts are drawn this far apart.
const STRIPE: f64 = 2.2;
/// Labels at the lines' ends are at least this far apart.
const LABEL_GAP: f64 = 15.0;

/// The chart as SVG (960×540 pixels).
pub(crate) fn render(chart: &Chart) -> String {
    let mut svg = Svg::new();
    svg.put(format_args!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">\n",
        w = WIDTH.round(),
        h = HEIGHT.round()
    ));
    svg.put(format_args!(
        "<rect width=\"{}\" height=\"{}\" fill=\"#FFFFFF\"/>\n",
        N(WIDTH),
        N(HEIGHT)
    ));
    svg.put(format_args!(
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
        N(WIDTH),
        N(BAND),
        palette::BAND
    ));
    svg.line(
        Point::new(0.0, BAND - 0.5),
        Point::new(WIDTH, BAND - 0.5),
        &format!("stroke=\"{}\" stroke-width=\"1\"", palette::BORDER),
    );
    svg.text(
        Point::new(12.0, 24.0),
        &chart.title,
        &format!("font-size=\"17\" fill=\"{}\"", palette::INK),
    );
    let highest = chart
        .lines
        .iter()
        .flat_map(|l| l.counts.iter().copied())
        .chain(chart.to_win)
        .max()
        .unwrap_or(0);
    // The y axis reaches the next even number past the highest count, and 18 at least.
    let top = (highest.max(18) + 1).next_multiple_of(2);
    let y_of = |n: u16| BOTTOM - (BOTTOM - TOP) * f64::from(n) / f64::from(top);
    let columns = chart.columns.len();
    let x_of = |i: usize| {
        if columns < 2 {
            (LEFT + RIGHT) / 2.0
        } else {
            LEFT + (RIGHT - LEFT) * i as f64 / (columns - 1) as f64
        }
    };
    grid(&mut svg, chart, top, &y_of, &x_of);
    if let Some(n) = chart.to_win.filter(|n| *n <= top) {
        let y = y_of(n);
        svg.put(format_args!(
            "<path d=\"M{} {y}L{} {y}\" stroke=\"{}\" stroke-width=\"1.5\" \
             stroke-dasharray=\"6 4\" fill=\"none\"/>\n",
            N(LEFT),
            N(RIGHT),
            palette::FAIL,
            y = N(y)
        ));
        svg.text(
            Point::new(LEFT + 6.0, y - 5.0),
            &format!("{n} to win"),
            &format!("font-size=\"11\" fill=\"{}\"", palette::FAIL),
        );
    }
    // The lines, each over a dark edge so that the light colours (Turkey's yellow) show
    // on white; the power with the most centres at the end drawn last, on top.
    let mut order: Vec<&ChartLine> = chart.lines.iter().collect();
    order.sort_by_key(|l| (l.counts.last().copied().unwrap_or(0), l.power));
    svg.raw("<g id=\"lines\">\n");
    for line in &order {
        let colour = palette::power(line.power).unit;
        // Each power's line a little above or below the count, in a fixed order, so that
        // lines of equal counts lie side by side, every colour showing.
        let shift = (power_index(line.power) as f64 - 3.0) * STRIPE;
        let points: Vec<Point> = line
            .counts
            .iter()
            .enumerate()
            .map(|(i, n)| Point::new(x_of(i), y_of(*n) + shift))
            .collect();
        svg.put(format_args!(
            "<g class=\"power\" data-power=\"{}\">\n",
            line.power.name()
        ));
        if points.len() > 1 {
            let edge = format!(
                "fill=\"none\" stroke=\"{}\" stroke-width=\"3.8\" stroke-linejoin=\"round\"",
                palette::INK
            );
            svg.polyline(&points, &edge);
            let stroke = format!(
                "fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.4\" stroke-linejoin=\"round\""
            );
            svg.polyline(&points, &stroke);
        }
        for p in &points {
            svg.circle(
                *p,
                3.4,
                &format!(
                    "fill=\"{colour}\" stroke=\"{}\" stroke-width=\"1\"",
                    palette::INK
                ),
            );
        }
        svg.raw("</g>\n");
    }
    svg.raw("</g>\n");
    labels(&mut svg, chart, &y_of);
    svg.raw("</svg>\n");
    svg.finish()
}

/// A power's place in [`Power::ALL`].
fn power_index(p: Power) -> usize {
    Power::ALL.iter().position(|q| *q == p).unwrap_or(0)
}

/// The axes, the grid lines and their numbers, the years.
fn grid(
    svg: &mut Svg,
    chart: &Chart,
    top: u16,
    y_of: &dyn Fn(u16) -> f64,
    x_of: &dyn Fn(usize) -> f64,
) {
    svg.raw("<g id=\"grid\">\n");
    let step = if top > 24 { 4 } else { 2 };
    for n in (0..=top).step_by(step) {
        let y = y_of(n);
        let stroke = if n == 0 { palette::INK } else { "#DDDDDD" };
        svg.put(format_args!(
            "<path d=\"M{} {y}L{} {y}\" stroke=\"{stroke}\" stroke-width=\"1\" fill=\"none\"/>\n",
            N(LEFT),
            N(RIGHT),
            y = N(y)
        ));
        svg.text(
            Point::new(LEFT - 8.0, y + 4.0),
            &n.to_string(),
            &format!(
                "font-size=\"11\" fill=\"{}\" text-anchor=\"end\"",
                palette::INK
            ),
        );
    }
    svg.put(format_args!(
        "<path d=\"M{x} {}L{x} {}\" stroke=\"{}\" stroke-width=\"1\" fill=\"none\"/>\n",
        N(TOP),
        N(BOTTOM),
        palette::INK,
        x = N(LEFT)
    ));
    // Every year's label while they fit (about 40 pixels each), else every second, fifth...
    let columns = chart.columns.len();
    let room = ((RIGHT - LEFT) / 40.0).max(1.0) as usize;
    let every = [1, 2, 5, 10, 20, 50]
        .into_iter()
        .find(|k| columns.div_ceil(*k) <= room.max(1))
        .unwrap_or(100);
    for (i, label) in chart.columns.iter().enumerate() {
        let x = x_of(i);
        svg.put(format_args!(
            "<path d=\"M{x} {}L{x} {}\" stroke=\"{}\" stroke-width=\"1\" fill=\"none\"/>\n",
            N(BOTTOM),
            N(BOTTOM + 4.0),
            palette::INK,
            x = N(x)
        ));
        if i % every == 0 || i + 1 == columns {
            svg.text(
                Point::new(x, BOTTOM + 18.0),
                label,
                &format!(
                    "font-size=\"11\" fill=\"{}\" text-anchor=\"middle\"",
                    palette::INK
                ),
            );
        }
    }
    svg.text(
        Point::new(14.0, (TOP + BOTTOM) / 2.0),
        "supply centres",
        &format!(
            "font-size=\"11\" fill=\"{}\" text-anchor=\"middle\" \
             transform=\"rotate(-90 14 {})\"",
            palette::INK,
            N((TOP + BOTTOM) / 2.0)
        ),
    );
    svg.raw("</g>\n");
}

/// Each power's name and last count at the right of its line's end, kept apart.
fn labels(svg: &mut Svg, chart: &Chart, y_of: &dyn Fn(u16) -> f64) {
    let mut labels: Vec<(f64, &ChartLine)> = chart
        .lines
        .iter()
        .filter_map(|l| l.counts.last().map(|n| (y_of(*n), l)))
        .collect();
    // Top to bottom, then pushed down until apart, then back up if the last fell off.
    labels.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.power.cmp(&b.1.power)));
    let mut ys: Vec<f64> = Vec::with_capacity(labels.len());
    for (y, _) in &labels {
        let y = match ys.last() {
            Some(prev) if *y < prev + LABEL_GAP => prev + LABEL_GAP,
            _ => *y,
        };
        ys.push(y);
    }
    let overflow = ys.last().map_or(0.0, |y| (y - (BOTTOM + 4.0)).max(0.0));
    svg.raw("<g id=\"labels\">\n");
    for ((_, line), y) in labels.iter().zip(ys) {
        let y = y - overflow;
        let colour = palette::power(line.power).unit;
        let at = Point::new(RIGHT + 16.0, y);
        svg.put(format_args!(
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{colour}\" \
             stroke=\"{}\" stroke-width=\"1\"/>\n",
            N(at.x),
            N(y - 5.0),
            palette::INK
        ));
        svg.text(
            at.offset(15.0, 4.0),
            &format!(
                "{} {}",
                line.power.name(),
                line.counts.last().copied().unwrap_or(0)
            ),
            &format!("font-size=\"12\" fill=\"{}\"", palette::INK),
        );
    }
    svg.raw("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::rules::Phase;

    fn at(phase: &str, extra: &[(Power, usize)]) -> Position {
        let map = Map::standard().expect("map");
        let mut p = Position::standard_start(map);
        p.phase = Phase::parse(phase).expect("a phase");
        // Give each power `n` more unowned centres, in map order.
        let free: Vec<_> = map
            .supply_centres()
            .filter(|c| p.owner_of(*c).is_none())
            .collect();
        let mut free = free.into_iter();
        for (power, n) in extra {
            for c in free.by_ref().take(*n) {
                if let Some(o) = p.owners.get_mut(c.index()) {
                    *o = Some(*power);
                }
            }
        }
        p
    }

    #[test]
    fn a_year_counts_once_its_fall_is_over() {
        let positions = [
            at("S1901M", &[]),
            at("F1901M", &[]),
            at("F1901R", &[]),
            // After the Fall: France took two, Russia one.
            at("W1901A", &[(Power::France, 2), (Power::Russia, 1)]),
            at("S1902M", &[(Power::France, 2), (Power::Russia, 1)]),
            at("F1902M", &[(Power::France, 2), (Power::Russia, 1)]),
            // No Winter phase: the next Spring carries 1902's count.
            at("S1903M", &[(Power::France, 3), (Power::Russia, 1)]),
        ];
        let chart = Chart::of_positions("t".into(), &positions, Some(18));
        assert_eq!(chart.columns, vec!["start", "1901", "1902"]);
        let line = |p: Power| {
            chart
                .lines
                .iter()
                .find(|l| l.power == p)
                .map(|l| l.counts.clone())
        };
        assert_eq!(line(Power::France), Some(vec![3, 5, 6]));
        assert_eq!(line(Power::Russia), Some(vec![4, 5, 5]));
        assert_eq!(line(Power::Turkey), Some(vec![3, 3, 3]));
        assert_eq!(chart.lines.len(), 7);
    }

    #[test]
    fn the_chart_draws_every_power_and_the_same_bytes_twice() {
        let positions = [at("S1901M", &[]), at("W1901A", &[(Power::Turkey, 2)])];
        let chart = Chart::of_positions("concert - centres".into(), &positions, Some(18));
        let svg = render(&chart);
        assert_eq!(svg, render(&chart));
        for p in Power::ALL {
            assert!(
                svg.contains(&format!("data-power=\"{}\"", p.name())),
                "{p:?}"
            );
        }
        assert!(svg.contains(">Turkey 5</text>"));
        assert!(svg.contains(">18 to win</text>"));
        let png = super::super::render_png(&svg).expect("a PNG");
        assert!(png.len() <= 120 * 1024);
    }
}
