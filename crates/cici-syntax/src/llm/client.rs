//! Calls with retries, the cache in front, and the batch alternative.

use super::secret::redact;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::cache::{self, Cache};
use super::{LlmConfig, Usage};

/// How calls that miss the cache are served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Sent to the endpoint.
    Live,
    /// Not sent: a miss is an error (`--offline`).
    Offline,
    /// Not sent: recorded for a batch file (`--emit-batch`).
    Emit,
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: "user".into(),
            content: content.into(),
        }
    }
}

/// Why a call gave no reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// The request waits in a batch file (or, offline, in no cache).
    Pending,
    /// This request failed (after retries): the candidate is dropped with
    /// this reason and the run goes on.
    Failed(String),
    /// Nothing will work (unreachable endpoint, unknown model, refused
    /// key, a cache miss offline): the run stops with this message.
    Fatal(String),
}

#[derive(Default)]
struct Counters {
    /// Calls in a row that failed or gave nothing usable.
    failures_in_a_row: AtomicU64,
    requests: AtomicU64,
    cache_hits: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
    retries: AtomicU64,
}

/// A model behind an OpenAI-compatible endpoint, with its cache.
pub struct Llm {
    config: LlmConfig,
    mode: Mode,
    cache: Cache,
    agent: ureq::Agent,
    /// Read once from the configured variable; only ever put in a header.
    api_key: Option<String>,
    counters: Counters,
    /// Requests waiting for a batch, by key.
    pending: Mutex<BTreeMap<String, Value>>,
    /// The first fatal error: once set, every call fails fast with it.
    fatal: Mutex<Option<String>>,
    /// The server refused `response_format`: ask for plain JSON instead.
    no_structured: AtomicBool,
}

impl std::fmt::Debug for Llm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key stays out of debug output too.
        f.debug_struct("Llm")
            .field("base_url", &self.config.base_url)
            .field("model", &self.config.model)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Llm {
    pub fn new(config: LlmConfig, mode: Mode) -> Llm {
        let api_key = config.api_key();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(super::bounded_secs(
                config.timeout_s.max(0.001),
                3600.0,
            )))
            .http_status_as_error(false)
            .build()
            .into();
        Llm {
            cache: Cache::new(&config.cache_dir),
            config,
            mode,
            agent,
            api_key,
            counters: Counters::default(),
            pending: Mutex::new(BTreeMap::new()),
            fatal: Mutex::new(None),
            no_structured: AtomicBool::new(false),
        }
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// `text` with every form of the API key masked: for what a caller
    /// takes from a reply (a decoded layer of it) before it prints or
    /// stores it, and before any cut.
    pub fn redact(&self, text: &str) -> String {
        redact(text, self.api_key.as_deref())
    }

    pub fn model(&self) -> &str {
        &self.config.model
    }

    /// The fatal error that stopped calls, if any.
    pub fn fatal(&self) -> Option<String> {
        self.fatal.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Stops every later call with this message (the run reports it).
    pub fn stop(&self, message: String) {
        self.set_fatal(message);
    }

    fn set_fatal(&self, message: String) -> CallError {
        let mut f = self.fatal.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            *f = Some(message.clone());
        }
        CallError::Fatal(f.clone().unwrap_or(message))
    }

    pub fn usage(&self) -> Usage {
        let c = &self.counters;
        Usage {
            requests: c.requests.load(Ordering::Relaxed),
            cache_hits: c.cache_hits.load(Ordering::Relaxed),
            prompt_tokens: c.prompt_tokens.load(Ordering::Relaxed),
            completion_tokens: c.completion_tokens.load(Ordering::Relaxed),
            retries: c.retries.load(Ordering::Relaxed),
            pending: self.pending.lock().map_or(0, |p| p.len() as u64),
        }
    }

    /// The request body for a conversation; `schema` asks for structured
    /// output where the server supports it.
    fn body(&self, messages: &[Message], schema: Option<&Value>) -> Value {
        let mut body = json!({
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature,
            "max_tokens": self.config.max_tokens,
        });
        if let Some(schema) = schema {
            if self.config.structured_output && !self.no_structured.load(Ordering::Relaxed) {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": { "name": "cici_reply", "schema": schema },
                });
            }
        }
        body
    }

    /// Records whether a call gave something usable. `max_failures` calls
    /// in a row that did not stop the run, with the last reason.
    pub fn note(&self, useful: bool, why: &str) {
        if useful {
            self.counters.failures_in_a_row.store(0, Ordering::Relaxed);
            return;
        }
        let n = self
            .counters
            .failures_in_a_row
            .fetch_add(1, Ordering::Relaxed)
            + 1;
        if n >= u64::from(self.config.max_failures) {
            self.set_fatal(format!(
                "{n} model calls in a row failed or gave nothing usable (`max_failures`); the last: {why}"
            ));
        }
    }

    /// The reply text for a conversation: from the cache, or the endpoint.
    pub fn complete(
        &self,
        messages: &[Message],
        schema: Option<&Value>,
    ) -> Result<String, CallError> {
        if let Some(f) = self.fatal() {
            return Err(CallError::Fatal(f));
        }
        let body = self.body(messages, schema);
        let key = cache::key(&body);
        if let Some(response) = self.cache.get(&key) {
            self.counters.cache_hits.fetch_add(1, Ordering::Relaxed);
            return reply_text(&response);
        }
        match self.mode {
            Mode::Offline => {
                return Err(self.set_fatal(format!(
                    "offline, and the cache in {} has no answer for request {key}; run without --offline, or ingest a batch",
                    self.cache.dir().display()
                )))
            }
            Mode::Emit => {
                self.pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(key, body);
                return Err(CallError::Pending);
            }
            Mode::Live => {}
        }
        match self.send(&body) {
            Ok(response) => {
                if let Err(e) = self.cache.put(&key, &body, &response) {
                    return Err(self.set_fatal(format!(
                        "cannot write the cache in {}: {e}",
                        self.cache.dir().display()
                    )));
                }
                reply_text(&response)
            }
            Err(Sent::Refused(structured)) if structured && schema.is_some() => {
                // Ask again without `response_format`.
                self.no_structured.store(true, Ordering::Relaxed);
                self.complete(messages, schema)
            }
            Err(Sent::Refused(_)) => {
                Err(CallError::Failed("the server refused the request".into()))
            }
            Err(Sent::Failed(m)) => {
                self.note(false, &m);
                match self.fatal() {
                    Some(f) => Err(CallError::Fatal(f)),
                    None => Err(CallError::Failed(m)),
                }
            }
            Err(Sent::Fatal(m)) => Err(self.set_fatal(m)),
        }
    }

    /// Sends one body with retries and backoff.
    fn send(&self, body: &Value) -> Result<Value, Sent> {
        let url = format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        );
        let key = self.api_key.as_deref();
        let mut attempt = 0u32;
        loop {
            self.counters.requests.fetch_add(1, Ordering::Relaxed);
            let mut request = self.agent.post(&url);
            if let Some(key) = &self.api_key {
                request = request.header("Authorization", &format!("Bearer {key}"));
            }
            let outcome = request.send_json(body);
            let retry_after: Option<f64>;
            let why: String;
            match outcome {
                Ok(mut response) => {
                    let status = response.status().as_u16();
                    let header = response
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<f64>().ok());
                    let body = response
                        .body_mut()
                        .with_config()
                        .limit(64 << 20)
                        .read_to_string();
                    let text = match body {
                        Ok(t) => redact(&t, key),
                        // A reply that stops half-way is retried like one
                        // that never came, within the same budget.
                        Err(ureq::Error::Timeout(_)) | Err(ureq::Error::Io(_)) => {
                            retry_after = None;
                            why = format!("the reply (HTTP {status}) was cut off before its end");
                            self.wait_or_stop(&mut attempt, retry_after, &why)?;
                            continue;
                        }
                        Err(_) => String::new(),
                    };
                    match self.answer(&url, status, &text)? {
                        Some(value) => return Ok(value),
                        None => {
                            retry_after = header;
                            why = format!("HTTP {status}{}", server_message(&text, key));
                        }
                    }
                }
                Err(ureq::Error::Timeout(_)) => {
                    retry_after = None;
                    why = format!("no reply within {} s", self.config.timeout_s);
                }
                // Nobody listens there, or the name is wrong: waiting
                // will not change that, so the run stops at once.
                Err(e @ (ureq::Error::ConnectionFailed | ureq::Error::HostNotFound)) => {
                    return Err(unreachable(&self.config.base_url, &e));
                }
                Err(ureq::Error::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                    return Err(unreachable(&self.config.base_url, &e));
                }
                Err(e @ ureq::Error::Io(_)) => {
                    if attempt >= self.config.max_retries {
                        return Err(Sent::Fatal(format!(
                            "cannot reach {}: {e}; is the server running, and is `base_url` right?",
                            super::secret::without_userinfo(&self.config.base_url)
                        )));
                    }
                    retry_after = None;
                    why = e.to_string();
                }
                Err(e) => {
                    return Err(Sent::Fatal(format!(
                        "calling {}: {e}",
                        super::secret::without_userinfo(&url)
                    )))
                }
            }
            self.wait_or_stop(&mut attempt, retry_after, &why)?;
        }
    }

    /// What a reply with this status and (redacted) text means: the value
    /// for a success, `None` for a status worth retrying (429, 5xx), or why
    /// the call failed.
    fn answer(&self, url: &str, status: u16, text: &str) -> Result<Option<Value>, Sent> {
        let key = self.api_key.as_deref();
        let url = super::secret::without_userinfo(url);
        match status {
            200..=299 => {
                let mut value: Value = serde_json::from_str(text)
                    .map_err(|e| Sent::Failed(format!("the server's reply is not JSON: {e}")))?;
                // Escapes can hide the key from the raw text's redaction.
                super::secret::redact_value(&mut value, key);
                self.count_tokens(&value);
                Ok(Some(value))
            }
            429 | 500..=599 => Ok(None),
            401 | 403 => Err(Sent::Fatal(format!(
                "{url} refused the credentials (HTTP {status}); set the API key in the environment variable `{}`",
                self.config.api_key_env
            ))),
            404 => Err(Sent::Fatal(format!(
                "{url} answered 404{}: is the base URL right, and does the server know the model `{}`?",
                server_message(text, key),
                self.config.model
            ))),
            400 if text.contains("response_format") => Err(Sent::Refused(true)),
            _ if mentions_unknown_model(text, &self.config.model) => Err(Sent::Fatal(format!(
                "the server does not know the model `{}`{}",
                self.config.model,
                server_message(text, key)
            ))),
            _ => Err(Sent::Failed(format!(
                "HTTP {status}{}",
                server_message(text, key)
            ))),
        }
    }

    /// Before a retry: gives up when the attempts or the run's
    /// `retry_budget` are spent, else counts the retry and waits (the
    /// server's `Retry-After`, capped by `max_retry_after_s`, or the
    /// backoff), announcing a long wait on stderr.
    fn wait_or_stop(
        &self,
        attempt: &mut u32,
        retry_after: Option<f64>,
        why: &str,
    ) -> Result<(), Sent> {
        if *attempt >= self.config.max_retries {
            return Err(Sent::Failed(format!(
                "gave up after {} attempts: {why}",
                *attempt + 1
            )));
        }
        let spent = self.counters.retries.load(Ordering::Relaxed);
        if spent >= self.config.retry_budget {
            return Err(Sent::Fatal(format!(
                "the run's {} retries (`retry_budget`) are spent; the last failure: {why}",
                self.config.retry_budget
            )));
        }
        *attempt += 1;
        self.counters.retries.fetch_add(1, Ordering::Relaxed);
        let backoff = super::bounded_secs(
            self.config.backoff_s * f64::from(1u32 << (*attempt - 1).min(16)),
            60.0,
        );
        let cap = self.config.max_retry_after_s;
        let wait = retry_after.map_or(backoff, |s| super::bounded_secs(s, cap));
        if wait.as_secs_f64() > 3.0 {
            let asked = match retry_after {
                Some(s) if s.is_nan() || s > cap => {
                    format!(" (the server asked for {s} s; `max_retry_after_s` caps it at {cap} s)")
                }
                _ => String::new(),
            };
            eprintln!(
                "waiting {:.0} s before retrying{asked}: {}",
                wait.as_secs_f64(),
                super::secret::escape_controls(why)
            );
        }
        std::thread::sleep(wait);
        Ok(())
    }

    fn count_tokens(&self, response: &Value) {
        let usage = &response["usage"];
        let n = |k: &str| usage[k].as_u64().unwrap_or(0);
        self.counters
            .prompt_tokens
            .fetch_add(n("prompt_tokens"), Ordering::Relaxed);
        self.counters
            .completion_tokens
            .fetch_add(n("completion_tokens"), Ordering::Relaxed);
    }

    /// Writes the requests waiting for a batch as OpenAI Batch JSONL, in key
    /// order; how many.
    pub fn write_batch(&self, path: &Path) -> std::io::Result<usize> {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let mut text = String::new();
        for (key, body) in pending.iter() {
            let line = json!({
                "custom_id": key,
                "method": "POST",
                "url": "/v1/chat/completions",
                "body": body,
            });
            text.push_str(&line.to_string());
            text.push('\n');
        }
        crate::io::write_atomic(path, &text)?;
        Ok(pending.len())
    }
}

/// What one send came to.
enum Sent {
    /// 400 about the request; true when `response_format` was the trouble.
    Refused(bool),
    Failed(String),
    Fatal(String),
}

/// `: <the server's error message>` from an error body, shortened, with
/// any form of the key masked after decoding and control characters
/// escaped.
fn server_message(body: &str, key: Option<&str>) -> String {
    let message = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| {
            v["error"]["message"]
                .as_str()
                .or(v["error"].as_str())
                .or(v["message"].as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| body.trim().to_string());
    if message.is_empty() {
        return String::new();
    }
    // Masked whole, then cut: a key across the cut would show in part.
    let short: String = redact(&message, key).chars().take(200).collect();
    format!(": {}", super::secret::escape_controls(&short))
}

fn mentions_unknown_model(body: &str, model: &str) -> bool {
    let lower = body.to_lowercase();
    lower.contains("model")
        && (lower.contains("not found")
            || lower.contains("does not exist")
            || lower.contains("unknown"))
        && (lower.contains(&model.to_lowercase()) || lower.contains("model_not_found"))
}

/// The assistant's text in a chat-completion object.
fn reply_text(response: &Value) -> Result<String, CallError> {
    response["choices"][0]["message"]["content"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| CallError::Failed("the reply has no `choices[0].message.content`".into()))
}

/// A batch output file that cannot be taken into the cache.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("{0}")]
    Read(crate::io::InputError),
    #[error("writing the cache: {0}")]
    Cache(std::io::Error),
}

/// Reads an OpenAI (or vLLM `run_batch`) batch output file into the cache:
/// each line's `custom_id` is the key of the request it answers. Returns
/// how many answers were stored and the lines that were errors.
///
/// `key` is the API key, if one is set: a batch file is a server's reply
/// like any other, and what it echoes of the key is masked before it is
/// stored or printed.
pub fn ingest_batch(
    path: &Path,
    cache: &Cache,
    api_key: Option<&str>,
) -> Result<(usize, Vec<String>), IngestError> {
    let text = crate::io::read_text(path).map_err(IngestError::Read)?;
    let mut stored = 0;
    let mut errors = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), n + 1);
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            errors.push(format!("{at}: not JSON"));
            continue;
        };
        let Some(key) = v["custom_id"].as_str().filter(|k| cache::is_key(k)) else {
            errors.push(format!("{at}: no `custom_id` that cici wrote"));
            continue;
        };
        let status = v["response"]["status_code"].as_u64().unwrap_or(0);
        let mut body = v["response"]["body"].clone();
        super::secret::redact_value(&mut body, api_key);
        if !v["error"].is_null() || !(200..300).contains(&status) || reply_text(&body).is_err() {
            errors.push(format!(
                "{at}: request {key} failed{}",
                server_message(&v["error"].to_string(), api_key)
            ));
            continue;
        }
        cache
            .put(key, &Value::Null, &body)
            .map_err(IngestError::Cache)?;
        stored += 1;
    }
    Ok((stored, errors))
}

/// The one line for an endpoint that cannot be reached.
fn unreachable(base_url: &str, e: &dyn std::fmt::Display) -> Sent {
    Sent::Fatal(format!(
        "cannot reach {}: {e}; is the server running, and is `base_url` right?",
        super::secret::without_userinfo(base_url)
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn credentials_in_server_text_are_masked() {
        let text = "echo: Authorization: Bearer sk-abcdefghijklmnop, key=mysecretkey123 ok";
        let r = super::redact(text, Some("mysecretkey123"));
        assert!(
            !r.contains("abcdefghijklmnop") && !r.contains("mysecretkey123"),
            "{r}"
        );
        assert!(r.contains("Authorization: Bearer [redacted]"), "{r}");
        assert_eq!(super::redact("no secrets, sk-1", None), "no secrets, sk-1");
    }
}
