//! The `dipjudge` command line: a thin shell over the library.
fn main() -> std::process::ExitCode {
    match dipjudge::map::Map::standard() {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dipjudge: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
