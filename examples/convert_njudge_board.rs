//! Converts one of njudge's boards (its `map` and `seed` files) into a board folder in
//! dipjudge's own CSV format, as `scripts/convert-njudge-boards.sh` does for every shipped
//! board:
//!
//! ```text
//! cargo run --example convert_njudge_board -- NJUDGE/data SPEC.toml OUT
//! ```
//!
//! `SPEC.toml` is the board's `board.toml` in njudge's format (`[map] format = "njudge"`,
//! `map = "map.chaos"`, `seed = "seed.chaos"`, the files' names in `NJUDGE/data`); the
//! board is named after the file (`chaos.toml`: `chaos`). The board is read and checked
//! as the judge reads it, then written to `OUT/<name>/` as CSV files and a `board.toml`.

use std::path::Path;

use anyhow::{Context, bail};
use dipjudge::map::board::{BoardFolder, load_board, write_csv};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [data, spec, out] = args.as_slice() else {
        bail!("usage: convert_njudge_board NJUDGE_DATA_DIR SPEC.toml OUT_DIR");
    };
    let spec_path = Path::new(spec);
    let name = spec_path
        .file_stem()
        .and_then(|s| s.to_str())
        .context("the spec's file name")?
        .to_string();
    let toml_text =
        std::fs::read_to_string(spec_path).with_context(|| format!("reading {spec}"))?;
    let value: toml::Value =
        toml::from_str(&toml_text).with_context(|| format!("reading {spec}"))?;
    let mut folder = BoardFolder {
        name: name.clone(),
        files: Default::default(),
    };
    for key in ["map", "seed"] {
        let file = value
            .get("map")
            .and_then(|m| m.get(key))
            .and_then(|f| f.as_str())
            .with_context(|| format!("{spec} names no [map] {key}"))?;
        let text = std::fs::read_to_string(Path::new(data).join(file))
            .with_context(|| format!("reading {file} in {data}"))?;
        folder.files.insert(file.to_string(), text);
    }
    folder.files.insert("board.toml".into(), toml_text);
    let board = load_board(&folder).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let source = format!(
        "Converted by examples/convert_njudge_board.rs from njudge's {} and {} (jonmarkgo/njudge); see THIRD-PARTY-NOTICES.md.",
        value["map"]["map"].as_str().unwrap_or("map"),
        value["map"]["seed"].as_str().unwrap_or("seed"),
    );
    let dir = Path::new(out).join(&name);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for (file, text) in write_csv(&board, &source) {
        std::fs::write(dir.join(&file), text).with_context(|| format!("writing {file}"))?;
    }
    println!(
        "{name}: {} provinces, {} centres, {} powers, {} units -> {}",
        board.provinces.len(),
        board.supply_centres().count(),
        board.powers.len(),
        board.units.len(),
        dir.display()
    );
    Ok(())
}
