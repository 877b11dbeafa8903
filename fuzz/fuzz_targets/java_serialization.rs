//! Fuzzes the Java Object Serialization decoder and its JSON mapping.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut stream = vec![0xAC, 0xED, 0x00, 0x05];
    stream.extend_from_slice(data);
    if let Ok((content, used)) = copilot_nitrite::javaser::parse(&stream) {
        assert!(used <= stream.len());
        let _ = copilot_nitrite::javaser::content_json(&content, 0);
    }
    let _ = copilot_nitrite::javaser::to_json(data);
});
