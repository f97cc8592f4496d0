//! Language models behind an OpenAI-compatible chat-completions endpoint.
//!
//! Hosted APIs, vLLM, llama.cpp's server and Ollama all speak the protocol.
//! Every call goes through a content-addressed cache on disk, keyed by the
//! hash of the full request body, so a rerun with the same inputs makes no
//! request and gets the same answers. Instead of calling, a run can collect
//! its requests as OpenAI Batch JSONL ([`Mode::Emit`]); the responses of a
//! batch are read into the cache ([`ingest_batch`]) and the next run goes on
//! from there. The API key is read from an environment variable whose name
//! is configured; it is sent in the `Authorization` header and nowhere else:
//! not in the cache, a batch file, a record or a message.

#[cfg(feature = "llm")]
mod cache;
#[cfg(feature = "llm")]
mod client;
#[cfg(not(feature = "llm"))]
mod off;
#[cfg(feature = "llm")]
mod redact;
mod secret;

#[cfg(feature = "llm")]
pub use cache::Cache;
#[cfg(feature = "llm")]
pub use client::{ingest_batch, CallError, IngestError, Llm, Message, Mode};
#[cfg(not(feature = "llm"))]
pub use off::Llm;
pub use secret::{escape_controls, without_userinfo};
#[cfg(feature = "llm")]
pub use secret::{redact, redact_value};

use serde::{Deserialize, Serialize};

/// What a run used, for stderr and the dataset card.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Requests sent over the network (retries included).
    pub requests: u64,
    /// Calls answered from the cache.
    pub cache_hits: u64,
    /// Tokens in and out of the requests sent.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub retries: u64,
    /// Calls left for a batch.
    pub pending: u64,
}

/// The `llm` section of `cici.yaml`; every field but `base_url` and `model`
/// has a default, and each a command-line override. A run that calls a
/// model needs `model`, and `base_url` unless it sends nothing
/// ([`LlmConfig::missing`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmConfig {
    /// The API root, e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`.
    pub base_url: String,
    pub model: String,
    /// The environment variable that holds the API key (no key is sent if
    /// it is unset, as local servers expect).
    pub api_key_env: String,
    pub temperature: f32,
    pub max_tokens: u32,
    /// Seconds before one request is given up and retried.
    pub timeout_s: f64,
    /// Retries after the first attempt, on 429, 5xx and timeouts.
    pub max_retries: u32,
    /// Retries the whole run may spend; past it the run stops with the last
    /// reason, so a server that keeps failing cannot keep it busy for hours.
    pub retry_budget: u64,
    /// Calls in a row that may fail, or give a reply with nothing usable in
    /// it, before the run stops.
    pub max_failures: u32,
    /// First backoff in seconds; doubled on each retry (a `Retry-After`
    /// header wins, up to `max_retry_after_s`).
    pub backoff_s: f64,
    /// The longest wait a server's `Retry-After` may ask for, in seconds;
    /// a longer one is cut to this, and every wait over a few seconds is
    /// announced on stderr.
    pub max_retry_after_s: f64,
    /// Requests in flight at once (one per worker).
    pub concurrency: usize,
    /// Where cached responses live.
    pub cache_dir: String,
    /// Ask for JSON through `response_format` (structured output); servers
    /// that refuse it are asked again for a plain JSON reply.
    pub structured_output: bool,
}

impl LlmConfig {
    /// The API key from the configured environment variable, when set.
    pub fn api_key(&self) -> Option<String> {
        std::env::var(&self.api_key_env)
            .ok()
            .filter(|k| !k.is_empty())
    }
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            base_url: String::new(),
            model: String::new(),
            api_key_env: "OPENAI_API_KEY".into(),
            temperature: 0.7,
            max_tokens: 1024,
            timeout_s: 60.0,
            max_retries: 4,
            retry_budget: 200,
            max_failures: 25,
            backoff_s: 1.0,
            max_retry_after_s: 60.0,
            concurrency: 4,
            cache_dir: ".cici-cache".into(),
            structured_output: true,
        }
    }
}

impl LlmConfig {
    /// The setting a run that calls a model lacks, if any: `model` always
    /// (it keys the cache and names the batch's requests), `base_url`
    /// when requests are sent.
    pub fn missing(&self, sends: bool) -> Option<&'static str> {
        if self.model.trim().is_empty() {
            Some("model")
        } else if sends && self.base_url.trim().is_empty() {
            Some("base_url")
        } else {
            None
        }
    }

    /// Every setting within its bounds, the key named when one is not:
    /// NaN, infinities and negative durations never reach a timer.
    pub fn validate(&self) -> Result<(), SettingError> {
        let seconds = |key: &'static str, value: f64, min: f64, max: f64| {
            if value.is_finite() && value >= min && value <= max {
                Ok(())
            } else {
                Err(SettingError::Seconds {
                    key,
                    value,
                    min,
                    max,
                })
            }
        };
        seconds("timeout_s", self.timeout_s, 0.001, 3600.0)?;
        seconds("backoff_s", self.backoff_s, 0.0, 300.0)?;
        seconds("max_retry_after_s", self.max_retry_after_s, 0.0, 3600.0)?;
        let range = |key: &'static str, ok: bool, value: String, range: &'static str| {
            if ok {
                Ok(())
            } else {
                Err(SettingError::Range { key, value, range })
            }
        };
        let t = self.temperature;
        range(
            "temperature",
            t.is_finite() && (0.0..=2.0).contains(&t),
            t.to_string(),
            "0 to 2",
        )?;
        let n = self.concurrency;
        range(
            "concurrency",
            (1..=256).contains(&n),
            n.to_string(),
            "1 to 256",
        )?;
        let n = self.max_retries;
        range("max_retries", n <= 20, n.to_string(), "0 to 20")?;
        let n = self.max_failures;
        range(
            "max_failures",
            (1..=10_000).contains(&n),
            n.to_string(),
            "1 to 10000",
        )?;
        let n = self.retry_budget;
        range(
            "retry_budget",
            n <= 1_000_000,
            n.to_string(),
            "0 to 1000000",
        )?;
        if self.max_tokens == 0 {
            return Err(SettingError::NoTokens);
        }
        Ok(())
    }
}

/// A duration of `seconds`, clamped to `[0, max]`; NaN reads as zero. Never
/// panics, whatever a server or a setting says.
pub fn bounded_secs(seconds: f64, max: f64) -> std::time::Duration {
    let s = if seconds.is_nan() {
        0.0
    } else {
        seconds.clamp(0.0, max)
    };
    std::time::Duration::try_from_secs_f64(s).unwrap_or(std::time::Duration::ZERO)
}

/// The JSON object in a model's reply: the whole reply, a fenced ```json
/// block, or the text from the first `{` to the last `}`.
pub fn extract_json(reply: &str) -> Result<serde_json::Value, ReplyError> {
    let trimmed = reply.trim();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(trimmed) {
        return Ok(v);
    }
    if let Some(start) = trimmed.find("```") {
        let body = &trimmed[start + 3..];
        let body = body.strip_prefix("json").unwrap_or(body);
        if let Some(end) = body.find("```") {
            if let Ok(v) = serde_json::from_str(body[..end].trim()) {
                return Ok(v);
            }
        }
    }
    match (trimmed.find('{'), trimmed.rfind('}')) {
        (Some(a), Some(b)) if a < b => {
            serde_json::from_str(&trimmed[a..=b]).map_err(|e| ReplyError::NotJson(e.to_string()))
        }
        _ => Err(ReplyError::NoObject),
    }
}

impl ReplyError {
    /// What is wrong, without the parser's detail.
    pub fn kind(&self) -> &'static str {
        match self {
            ReplyError::NotJson(_) => "the reply is not JSON",
            ReplyError::NoObject => "the reply holds no JSON object",
            ReplyError::Shape { expected, .. } => expected,
        }
    }
}

/// A setting of `llm:` out of its bounds.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingError {
    #[error("`{key}` is {value}; it takes seconds from {min} to {max}")]
    Seconds {
        key: &'static str,
        value: f64,
        min: f64,
        max: f64,
    },
    #[error("`{key}` is {value}; it takes {range}")]
    Range {
        key: &'static str,
        value: String,
        range: &'static str,
    },
    #[error("`max_tokens` must be at least 1")]
    NoTokens,
}

/// A model's reply that is not the JSON asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    #[error("the reply is not JSON: {0}")]
    NotJson(String),
    #[error("the reply holds no JSON object")]
    NoObject,
    /// JSON, but not of the shape asked for.
    #[error("{expected}: {error}")]
    Shape {
        expected: &'static str,
        error: String,
    },
}
