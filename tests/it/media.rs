//! Image description and audio transcription against a fake OpenAI-compatible server.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use base64::Engine as _;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::files::files_under;
use vaultsum_core::llm::ChatClient;
use vaultsum_core::media::{MediaDescriber, MediaError, MediaRefusal};
use vaultsum_tools::config::LlmConfig;

/// The first bytes of a PNG file; the server never decodes them.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-fake-image";

fn describer(cfg: &LlmConfig, cache_root: &Path) -> MediaDescriber {
    let client = Arc::new(ChatClient::new(cfg).unwrap());
    MediaDescriber::with_cache_root(Some(client), cfg, cache_root)
}

#[tokio::test]
async fn image_is_sent_to_the_vision_model_as_a_base64_data_url() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat("A whiteboard listing three deadlines.\n"));
    let mut cfg = server.llm_config();
    cfg.vision_model = "accounts/fireworks/models/test-vl".into();
    let cache = tempfile::tempdir().unwrap();

    let text = describer(&cfg, cache.path())
        .describe_image("attachments/Board.PNG", PNG)
        .await
        .unwrap();

    assert_eq!(text, "A whiteboard listing three deadlines.");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(
        sent.model().as_deref(),
        Some("accounts/fireworks/models/test-vl")
    );
    assert!(
        sent.user_text().contains("Board.PNG"),
        "{}",
        sent.user_text()
    );
    assert!(!sent.system_text().is_empty());
    let urls = sent.image_urls();
    assert_eq!(urls.len(), 1);
    let data = urls[0]
        .strip_prefix("data:image/png;base64,")
        .unwrap_or_else(|| panic!("not a PNG data URL: {}", &urls[0][..40.min(urls[0].len())]));
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap(),
        PNG
    );
}

#[tokio::test]
async fn each_image_type_is_sent_with_its_mime_type() {
    let server = FakeOpenAi::start();
    let cfg = server.llm_config();
    let cache = tempfile::tempdir().unwrap();
    let media = describer(&cfg, cache.path());
    let cases = [
        ("a.svg", "image/svg+xml"),
        ("b.avif", "image/avif"),
        ("c.webp", "image/webp"),
        ("d.bmp", "image/bmp"),
        ("e.gif", "image/gif"),
        ("f.jpg", "image/jpeg"),
    ];
    for (i, (name, mime)) in cases.iter().enumerate() {
        // Distinct bytes, so no case is served from the cache.
        media.describe_image(name, &[i as u8 + 1; 8]).await.unwrap();
        let sent = &server.requests()[i];
        assert!(
            sent.image_urls()[0].starts_with(&format!("data:{mime};base64,")),
            "{name}"
        );
    }
}

#[tokio::test]
async fn a_described_image_is_served_from_the_cache_without_a_request() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat("A cat on a keyboard."));
    let cfg = server.llm_config();
    let cache = tempfile::tempdir().unwrap();

    let first = describer(&cfg, cache.path())
        .describe_image("cat.jpg", PNG)
        .await
        .unwrap();
    // A new describer (a later run) with the same cache folder, and another name for the file.
    let second = describer(&cfg, cache.path())
        .describe_image("copy of cat.jpg", PNG)
        .await
        .unwrap();

    assert_eq!(first, "A cat on a keyboard.");
    assert_eq!(second, first);
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn another_vision_model_does_not_reuse_the_cached_description() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat("from model one"));
    server.push(FakeReply::chat("from model two"));
    let cache = tempfile::tempdir().unwrap();
    let cfg = server.llm_config();
    let mut other = server.llm_config();
    other.vision_model = "another-vision-model".into();

    let one = describer(&cfg, cache.path())
        .describe_image("x.png", PNG)
        .await
        .unwrap();
    let two = describer(&other, cache.path())
        .describe_image("x.png", PNG)
        .await
        .unwrap();

    assert_eq!(
        (one.as_str(), two.as_str()),
        ("from model one", "from model two")
    );
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn a_failed_description_is_not_cached() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::error(400, r#"{"detail":"image too small"}"#));
    server.push(FakeReply::chat("worked the second time"));
    let cfg = server.llm_config();
    let cache = tempfile::tempdir().unwrap();
    let media = describer(&cfg, cache.path());

    let err = media.describe_image("x.png", PNG).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("x.png") && text.contains("image too small"),
        "{text}"
    );
    assert!(matches!(err, MediaError::Llm { .. }));
    assert_eq!(
        media.describe_image("x.png", PNG).await.unwrap(),
        "worked the second time"
    );
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn audio_is_transcribed_with_the_whisper_model_at_the_audio_url_and_cached() {
    let chat_server = FakeOpenAi::start();
    let audio_server = FakeOpenAi::start();
    audio_server.push(FakeReply::transcription("We agreed to ship on Friday."));
    let mut cfg = chat_server.llm_config();
    cfg.audio_base_url = audio_server.base_url();
    cfg.whisper_model = "whisper-v3-turbo".into();
    let cache = tempfile::tempdir().unwrap();
    let media = describer(&cfg, cache.path());

    let text = media
        .transcribe_audio("Recordings/standup.mp3", b"ID3-fake-mp3")
        .await
        .unwrap();
    let again = media
        .transcribe_audio("elsewhere/standup.mp3", b"ID3-fake-mp3")
        .await
        .unwrap();

    assert_eq!(text, "We agreed to ship on Friday.");
    assert_eq!(again, text);
    assert_eq!(chat_server.request_count(), 0);
    let requests = audio_server.requests();
    assert_eq!(
        requests.len(),
        1,
        "the second transcription came from the cache"
    );
    let file = requests[0].multipart_field("file").unwrap();
    assert_eq!(file.file_name.as_deref(), Some("standup.mp3"));
    assert_eq!(file.content_type.as_deref(), Some("audio/mpeg"));
    assert_eq!(file.data, b"ID3-fake-mp3");
    assert_eq!(requests[0].model().as_deref(), Some("whisper-v3-turbo"));
}

#[tokio::test]
async fn without_a_client_media_is_not_configured_and_nothing_is_written() {
    let server = FakeOpenAi::start();
    let cache = tempfile::tempdir().unwrap();
    let media = MediaDescriber::with_cache_root(None, &server.llm_config(), cache.path());

    assert!(!media.is_configured());
    let err = media.describe_image("photo.png", PNG).await.unwrap_err();
    assert!(matches!(err, MediaError::NotConfigured { .. }), "{err:?}");
    assert!(err.to_string().contains("photo.png"), "{err}");
    let err = media
        .transcribe_audio("memo.wav", b"RIFF")
        .await
        .unwrap_err();
    assert!(matches!(err, MediaError::NotConfigured { .. }), "{err:?}");
    assert_eq!(server.request_count(), 0);
    assert!(files_under(cache.path()).is_empty());
}

#[tokio::test]
async fn unsupported_and_empty_files_are_refused_before_any_request() {
    let server = FakeOpenAi::start();
    let cache = tempfile::tempdir().unwrap();
    let media = describer(&server.llm_config(), cache.path());

    let err = media.describe_image("scan.tiff", PNG).await.unwrap_err();
    assert!(
        matches!(err, MediaError::Refused(MediaRefusal::Unsupported { .. })),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("png"),
        "lists what is supported: {err}"
    );
    let err = media.transcribe_audio("clip.mp4", b"x").await.unwrap_err();
    assert!(
        matches!(err, MediaError::Refused(MediaRefusal::Unsupported { .. })),
        "{err:?}"
    );
    let err = media.describe_image("empty.png", b"").await.unwrap_err();
    assert!(
        matches!(err, MediaError::Refused(MediaRefusal::EmptyFile { .. })),
        "{err:?}"
    );
    assert_eq!(server.request_count(), 0);
}

#[tokio::test]
async fn cache_entries_are_written_outside_the_vault() {
    let server = FakeOpenAi::start();
    let vault = tempfile::tempdir().unwrap();
    std::fs::create_dir(vault.path().join("attachments")).unwrap();
    std::fs::write(vault.path().join("attachments/diagram.png"), PNG).unwrap();
    std::fs::write(vault.path().join("Note.md"), "![[diagram.png]]\n").unwrap();
    let before = files_under(vault.path());
    let cache = tempfile::tempdir().unwrap();
    let media = describer(&server.llm_config(), cache.path());

    let bytes = std::fs::read(vault.path().join("attachments/diagram.png")).unwrap();
    media.describe_image("diagram.png", &bytes).await.unwrap();

    assert_eq!(files_under(vault.path()), before, "the vault was changed");
    assert_eq!(files_under(cache.path()).len(), 1, "one cache entry");
    // The default location is the per-user cache folder, not the working directory.
    let default = MediaDescriber::new(None, &server.llm_config());
    assert!(default
        .cache_root()
        .starts_with(vaultsum_tools::config::cache_dir()));
    assert!(default.cache_root().is_absolute());
}

/// The mcp-load shape: 16 sessions of one server (one context) read, at the same moment, a note
/// embedding two images not yet described. Each image is described once: 2 paid calls, not 32.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_concurrent_readers_pay_for_each_image_once() {
    let server = FakeOpenAi::start();
    server.set_fallback(
        FakeReply::chat("A whiteboard listing three deadlines.")
            .with_delay(std::time::Duration::from_millis(300)),
    );
    let vault = support::temp_vault::TempVault::with(&[(
        "Board.md",
        "# Board\n\n![[one.png]]\n\n![[two.png]]\n",
    )]);
    vault.write("one.png", PNG);
    vault.write("two.png", [PNG, b"-second"].concat());
    let mut config = vaultsum_tools::config::Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        llm: server.llm_config(),
        ..vaultsum_tools::config::Config::default()
    };
    config.read.describe_media = true;
    let registry = Arc::new(vaultsum_tools::Registry::new(Arc::new(
        vaultsum_tools::ToolContext::new(config).unwrap(),
    )));
    let readers: Vec<_> = (0..16)
        .map(|_| {
            let registry = Arc::clone(&registry);
            tokio::spawn(async move {
                registry
                    .call("read_file", serde_json::json!({ "path": "Board.md" }))
                    .await
            })
        })
        .collect();
    for reader in readers {
        let output = reader.await.unwrap();
        assert!(!output.is_error, "{}", output.text);
        assert_eq!(
            output
                .text
                .matches("A whiteboard listing three deadlines.")
                .count(),
            2,
            "{}",
            output.text
        );
    }
    assert_eq!(server.request_count(), 2, "one paid call per image");
}

/// A failed description releases every caller waiting on it with the error, none hangs, and
/// the failing call is made once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_shared_description_reaches_every_waiter() {
    let server = FakeOpenAi::start();
    server.set_fallback(
        FakeReply::openai_error(400, "image too small")
            .with_delay(std::time::Duration::from_millis(300)),
    );
    let cache = tempfile::tempdir().unwrap();
    let media = describer(&server.llm_config(), cache.path());
    let callers: Vec<_> = (0..16)
        .map(|_| {
            let media = media.clone();
            tokio::spawn(async move { media.describe_image("board.png", PNG).await })
        })
        .collect();
    for caller in callers {
        let error = caller.await.unwrap().unwrap_err();
        assert!(error.to_string().contains("image too small"), "{error}");
    }
    assert_eq!(server.request_count(), 1, "the failing call was made once");
    assert!(
        files_under(cache.path()).is_empty(),
        "a failure is not cached"
    );
}

/// Two processes on one cache (watch and an MCP server, say) reading a note whose image is not
/// described yet: the second waits for the first one's call instead of paying again, and both
/// read the description.
#[test]
fn two_processes_on_one_cache_pay_for_an_image_once() {
    use support::fake_server::Gate;
    use support::running::Running;

    let server = FakeOpenAi::start();
    let gate = Gate::new();
    server.set_fallback(FakeReply::chat("A whiteboard listing three deadlines.").held_until(&gate));
    let vault = support::temp_vault::TempVault::with(&[("Board.md", "# Board\n\n![[one.png]]\n")]);
    vault.write("one.png", PNG);
    // Both processes get the same scratch folder, so the same media cache.
    let read = |log: &str| {
        let mut command = support::cli::vaultsum_process(&vault.outside());
        command
            .arg("--vault")
            .arg(vault.root())
            .args(["read", "Board.md"])
            .envs(server.env())
            .env("RUST_LOG", log);
        Running::spawn(&mut command)
    };
    let first = read("warn");
    assert!(
        support::poll::wait_until(|| server.request_count() == 1),
        "the first process never asked"
    );
    let mut second = read("vaultsum_core=debug");
    second.wait_for_stderr(|line| {
        line.contains("another vaultsum process is making this call; waiting for its result")
    });
    gate.open();
    for run in [first.wait(), second.wait()] {
        assert!(run.status.success(), "{}", run.stderr_text());
        assert!(
            run.stdout
                .iter()
                .any(|l| l.contains("A whiteboard listing three deadlines.")),
            "{:?}",
            run.stdout
        );
    }
    assert_eq!(
        server.request_count(),
        1,
        "one paid call for both processes"
    );
    let locks: Vec<_> = files_under(&vault.outside().join("cache"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "lock"))
        .collect();
    assert!(locks.is_empty(), "no lock left behind: {locks:?}");
}
