//! Whether the LLM server runs on this machine or the local network (llama.cpp, Ollama, LM
//! Studio, vLLM on a box at home), where nobody stands between it and the client to answer 429:
//! such a server queues what it cannot serve, and the limiter watches for that
//! ([`crate::llm::Limiter::sense_queueing`]). Hosted APIs say they are overloaded with 429 and
//! 503, and their answer times vary with their own load, not with this client's queue.

use std::net::IpAddr;

/// Whether the limiter treats the server at `base_url` as local: `configured`
/// (`llm.local_server`) when set, else [`is_local`] (a proxy to a hosted API on this machine,
/// LiteLLM say, is set to `false`).
pub(crate) fn treat_as_local(base_url: &str, configured: Option<bool>) -> bool {
    configured.unwrap_or_else(|| is_local(base_url))
}

/// True when `base_url`'s host is a loopback or private address, `localhost`, a `.local` (mDNS)
/// name or a bare host name without a dot (a machine on the local network).
pub(crate) fn is_local(base_url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(base_url) else {
        return false;
    };
    let Some(host) = url.host_str() else {
        return false;
    };
    if let Ok(ip) = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        return local_ip(ip);
    }
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.ends_with(".local")
        || name == "host.docker.internal"
        || !name.contains('.')
}

fn local_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => {
            v6.is_loopback()
                // fc00::/7, unique local addresses.
                || (v6.segments()[0] & 0xfe00) == 0xfc00
                || v6.to_ipv4_mapped().is_some_and(|v4| local_ip(IpAddr::V4(v4)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_on_this_machine_or_network_are_local() {
        for url in [
            "http://127.0.0.1:8080/v1",
            "http://localhost:11434/v1",
            "http://[::1]:8000/v1",
            "http://192.168.1.20:1234/v1",
            "http://10.0.0.5/v1",
            "http://gpu-box:8000/v1",
            "http://studio.local:1234/v1",
            "http://host.docker.internal:11434/v1",
        ] {
            assert!(is_local(url), "{url}");
        }
    }

    #[test]
    fn hosted_apis_are_not_local() {
        for url in [
            "https://api.fireworks.ai/inference/v1",
            "https://api.openai.com/v1",
            "https://api.groq.com/openai/v1",
            "http://8.8.8.8/v1",
            "not a url",
        ] {
            assert!(!is_local(url), "{url}");
        }
    }
}
