//! ai-chat-forensics: the facade. (Work in progress: see issue 2.)
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use chat_rows;
pub mod stores;
