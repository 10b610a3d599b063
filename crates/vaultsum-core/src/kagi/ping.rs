//! Is Kagi there, and does it take the key? Asked without spending anything: Kagi's v0 API has
//! no free "who am I" endpoint, and every search or summary is billed, so the check is a
//! `GET /summarize` with no `url`, which Kagi refuses before doing any work. Any HTTP answer
//! means the API is reachable; with a key, 401 or 403 means the key was refused (Kagi checks
//! the key before the missing parameter).

use std::time::Duration;

use super::client::{network_error, KagiClient};
use super::error::{KagiError, Operation};

/// What the free check learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KagiReach {
    /// The API answered (with the refusal of the empty request, or anything else but a key
    /// refusal); `status` is the HTTP status, `key_sent` whether a key went with it.
    Answered { status: u16, key_sent: bool },
    /// The API answered 401 or 403 to the request carrying the key.
    KeyRefused { status: u16 },
}

impl KagiClient {
    /// Sends the free check described in this module, with the key when there is one, and
    /// waits at most `timeout`. No answer (DNS, refused connection, TLS, the time limit) is
    /// [`KagiError::Network`]; the key never appears in an error.
    pub async fn ping(&self, timeout: Duration) -> Result<KagiReach, KagiError> {
        let op = Operation::Ping;
        let http = self.http().as_ref().map_err(|reason| KagiError::Setup {
            operation: op,
            reason: reason.clone(),
        })?;
        let url = format!("{}/summarize", self.base_url);
        let key = self.keys.key();
        let mut request = http.get(&url).timeout(timeout);
        if let Some(key) = &key {
            request = request.header(
                reqwest::header::AUTHORIZATION,
                format!("Bot {}", key.expose()),
            );
        }
        let response = request.send().await.map_err(|error| {
            if error.is_timeout() {
                KagiError::Network {
                    operation: op,
                    url: url.clone(),
                    reason: format!("no answer within {} s", timeout.as_secs_f64()),
                }
            } else {
                network_error(op, &url, timeout, error)
            }
        })?;
        let status = response.status().as_u16();
        Ok(match status {
            401 | 403 if key.is_some() => KagiReach::KeyRefused { status },
            _ => KagiReach::Answered {
                status,
                key_sent: key.is_some(),
            },
        })
    }
}
