//! The registry of store crates. Each store crate adds one line here (and its
//! dependency in the root Cargo.toml); the scanner offers every file to each store in
//! this order, and the first claim wins.

use chat_rows::Store;

/// Every store this build can read, in claim order.
pub fn all() -> Vec<Box<dyn Store>> {
    #[allow(unused_mut)]
    let mut stores: Vec<Box<dyn Store>> = Vec::new();
    // store registrations: one `stores.push(Box::new(<crate>::<StoreType>::default()));` per crate
    stores
}
