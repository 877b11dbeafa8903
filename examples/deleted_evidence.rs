//! What did the user delete? Prints every row that is no longer in a store's current
//! state (deleted records from freed SQLite space, values a later write of the same
//! file replaced) and every secondary-only row (a backup or legacy copy that outlived
//! the primary), as CSV.
//!
//! ```sh
//! cargo run --release --example deleted_evidence -- fixtures/evidence > deleted.csv
//! ```

use ai_chat_forensics::chat_rows::write::{Format, RowWriter};
use ai_chat_forensics::{RecordState, Scanner};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let roots: Vec<String> = std::env::args().skip(1).collect();
    if roots.is_empty() {
        return Err("usage: deleted_evidence ROOT [ROOT ...]".into());
    }
    let mut scanner = Scanner::new();
    for r in &roots {
        scanner = scanner.root(r);
    }
    let result = scanner.run()?;
    let mut out = RowWriter::new(Format::Csv, std::io::stdout().lock())?;
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for row in &result.rows {
        if row.record_state != RecordState::Live {
            out.write(row)?;
            *counts.entry(row.record_state.as_str()).or_default() += 1;
        }
    }
    out.finish()?;
    for (state, n) in counts {
        eprintln!("{state}: {n}");
    }
    Ok(())
}
