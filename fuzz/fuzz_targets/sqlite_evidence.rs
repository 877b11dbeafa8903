//! Fuzzes sqlite-evidence's own decoders: the WAL scan (header, salts, checksums), the
//! database header, the in-memory image build, recovery's page and record decoding (the
//! schema read by hand, dropped tables, the schema table's own freed records), and the
//! paged mode (pages read on demand, records walked and carved as a stream; its dropped
//! tables, orphaned pages and schema read by hand when page 1's b-tree is not whole, and
//! `any::AnyDatabase`'s paged reading). The first
//! byte splits the rest into a main file and a WAL.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sqlite_evidence::fuzzing::exercise(data));
