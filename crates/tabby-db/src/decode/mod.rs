//! Decoding Tabby's formats, independent of rows.
//!
//! * [`db`]: the server database and its backups, at any schema level;
//! * [`attachment`]: message and page-section attachments, old and new shapes;
//! * [`event`]: the event enum shared by the event log and `user_events`;
//! * [`hashid`]: Tabby's Hashids user ids;
//! * [`config`]: the configured models of `config.toml`;
//! * [`history`]: the editor clients' inline-edit command histories.

pub mod attachment;
pub mod config;
pub mod db;
pub mod event;
pub mod hashid;
pub mod history;
