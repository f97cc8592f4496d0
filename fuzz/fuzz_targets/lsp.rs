//! Any bytes through the language server's framing and its message loop,
//! after a proper `initialize`: no panic and no abort; every message read
//! is answered or acted on, and the loop ends when the input does.
#![no_main]

use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fuzz_target!(|data: &[u8]| {
    let mut input = frame(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#,
    );
    input.extend(frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
    input.extend_from_slice(data);
    let (server, client) = lsp_server::Connection::memory();
    let lsp_server::Connection { sender, receiver } = client;
    // The framing answers malformed input itself, on its own writer.
    let framing_errors = Mutex::new(Vec::<u8>::new());
    cici::authoring::lsp::transport::read_loop(input.as_slice(), &sender, &framing_errors);
    // End of input: the loop drains what was read and returns.
    drop(sender);
    let _ = cici::authoring::lsp::serve(&server);
    drop(server);
    for answer in receiver.try_iter() {
        // Whatever the server says is a message it can write.
        serde_json::to_string(&answer).expect("an answer serializes");
    }
});
