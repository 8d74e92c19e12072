//! Git mode in a fleet: a verified webhook received by one replica is
//! spread to every replica through Redis pub/sub, so all fetch the pushed
//! commit within about a second. Without Redis each replica still fetches
//! at its next poll.

use crate::fleet::{redact_error, Fleet, DEADLINE, RETRY};
use crate::redact::redact_url;
use futures_util::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// The fetch notices of one repository.
pub struct Fanout {
    fleet: Arc<Fleet>,
    channel: String,
}

impl Fanout {
    /// The pub/sub channel of fetch notices for a repository: the prefix and
    /// the URL without credentials, so fleets of other repositories, or of
    /// other prefixes, never hear them.
    pub fn new(fleet: Arc<Fleet>, repo_url: &str) -> Fanout {
        let channel = fleet.key(&format!("fetch:{}", redact_url(repo_url)));
        Fanout { fleet, channel }
    }

    pub fn channel(&self) -> &str {
        &self.channel
    }

    /// Tells every replica to fetch now (after a verified webhook). A
    /// connection that fails (Redis restarted since the last heartbeat) is
    /// replaced and the notice sent again once, so it is not lost.
    pub async fn announce(&self) {
        let Some(conn) = self.fleet.connection() else {
            return;
        };
        if self.publish(conn).await.is_ok() {
            return;
        }
        let again = match self.fleet.reconnect().await {
            Ok(conn) => self.publish(conn).await,
            Err(e) => Err(e),
        };
        if let Err(error) = again {
            tracing::warn!(
                error = %redact_error(&error),
                "could not publish the fetch notice; other replicas fetch at their next poll"
            );
        }
    }

    async fn publish(&self, mut conn: redis::aio::ConnectionManager) -> Result<(), String> {
        let mut cmd = redis::cmd("PUBLISH");
        cmd.arg(&self.channel).arg(self.fleet.id());
        let publish = cmd.query_async::<i64>(&mut conn);
        match tokio::time::timeout(DEADLINE * 4, publish).await {
            Ok(Ok(n)) => {
                tracing::debug!(replicas = n, "fetch notice published");
                Ok(())
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("no answer in time".into()),
        }
    }

    /// Listens for other replicas' fetch notices and sends each to `fetch`,
    /// reconnecting after an outage, until marque stops.
    pub fn spawn_listener(
        self: &Arc<Self>,
        fetch: std::sync::mpsc::Sender<()>,
        mut stopping: watch::Receiver<bool>,
    ) {
        let fanout = self.clone();
        tokio::spawn(async move {
            let (fleet, channel) = (&fanout.fleet, &fanout.channel);
            let mut was_down = false;
            loop {
                let attempt = async {
                    let mut pubsub = fleet.subscriber().await?;
                    pubsub.subscribe(channel).await?;
                    Ok::<_, redis::RedisError>(pubsub)
                };
                let listened = tokio::select! {
                    r = tokio::time::timeout(Duration::from_secs(2), attempt) => r,
                    _ = stopping.wait_for(|s| *s) => return,
                };
                match listened {
                    Ok(Ok(pubsub)) => {
                        if was_down {
                            tracing::info!("listening for fetch notices again");
                        }
                        was_down = false;
                        let mut messages = pubsub.into_on_message();
                        loop {
                            let msg = tokio::select! {
                                m = messages.next() => m,
                                _ = stopping.wait_for(|s| *s) => return,
                            };
                            let Some(msg) = msg else { break };
                            let from: String = msg.get_payload().unwrap_or_default();
                            if from != fleet.id() {
                                let _ = fetch.send(());
                            }
                        }
                    }
                    Ok(Err(e)) if !was_down => {
                        was_down = true;
                        tracing::warn!(error = %redact_error(&e.to_string()), "cannot listen for fetch notices; polling still fetches");
                    }
                    Err(_) if !was_down => {
                        was_down = true;
                        tracing::warn!("cannot listen for fetch notices; polling still fetches");
                    }
                    _ => {}
                }
                tokio::select! {
                    _ = tokio::time::sleep(RETRY) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_never_carry_credentials() {
        let f = Fleet::new("redis://:pw@127.0.0.1:1/", None, "marque:").unwrap();
        let fanout = Fanout::new(f, "https://x:y@git.example.com/b.git");
        assert_eq!(
            fanout.channel(),
            "marque:fetch:https://git.example.com/b.git"
        );
    }
}
