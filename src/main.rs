//! The `dipjudge` command line: a thin shell over the library.
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("parse") {
        return parse_command(args.get(1..).unwrap_or(&[]));
    }
    match dipjudge::map::Map::standard() {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dipjudge: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

/// `dipjudge parse [--variant NAME]`: a mail body on standard input, one reply line per
/// command on standard output. (To be folded into the clap CLI.)
fn parse_command(args: &[String]) -> std::process::ExitCode {
    use std::io::Read;
    let variant = match args {
        [] => None,
        [flag, name] if flag == "--variant" => Some(name.as_str()),
        [flag] if flag.starts_with("--variant=") => flag.strip_prefix("--variant="),
        _ => {
            eprintln!("usage: dipjudge parse [--variant NAME] < mail-body.txt");
            return std::process::ExitCode::from(2);
        }
    };
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("dipjudge: reading standard input: {e}");
        return std::process::ExitCode::from(2);
    }
    let input = String::from_utf8_lossy(&bytes);
    let stdout = std::io::stdout();
    match dipjudge::command::run_parse_cli(&input, variant, &mut stdout.lock()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dipjudge: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
