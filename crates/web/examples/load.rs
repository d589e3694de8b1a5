//! A bounded load test of `ajedrecista serve` on loopback.
//!
//! `cargo run --release -p ajedrecista-web --example load -- ADDR [GAMES] [SECONDS] [FLOOD]`
//!
//! GAMES clients (64) each play El Ajedrecista from the machine's own start
//! (the black king placed on a start square, then its first legal move each
//! turn) over one keep-alive connection, game after game, for SECONDS (10).
//! Then FLOOD (0) new games are asked for without playing them, to see the
//! cap at work. Prints requests per second, latency and every status seen.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One keep-alive HTTP/1.1 connection.
struct Client {
    stream: BufReader<TcpStream>,
    host: String,
}

impl Client {
    async fn connect(addr: &str) -> std::io::Result<Client> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Client {
            stream: BufReader::new(stream),
            host: addr.to_string(),
        })
    }

    async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: &str,
    ) -> std::io::Result<(u16, String)> {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            self.host,
            body.len()
        );
        self.stream.get_mut().write_all(request.as_bytes()).await?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut length = 0;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await?;
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }
}

#[derive(Default)]
struct Tally {
    requests: u64,
    games: u64,
    statuses: BTreeMap<u16, u64>,
    latencies: Vec<Duration>,
    io_errors: u64,
}

async fn timed(
    client: &mut Client,
    tally: &mut Tally,
    method: &str,
    path: &str,
    body: &str,
) -> Option<(u16, Value)> {
    let started = Instant::now();
    match client.request(method, path, body).await {
        Ok((status, text)) => {
            tally.latencies.push(started.elapsed());
            tally.requests += 1;
            *tally.statuses.entry(status).or_default() += 1;
            Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
        }
        Err(_) => {
            tally.io_errors += 1;
            None
        }
    }
}

/// Plays games until `until`.
async fn player(addr: String, until: Instant, seed: usize) -> Tally {
    let mut tally = Tally::default();
    let Ok(mut client) = Client::connect(&addr).await else {
        tally.io_errors += 1;
        return tally;
    };
    let mut round = seed;
    while Instant::now() < until {
        let Some((201, mut game)) = timed(
            &mut client,
            &mut tally,
            "POST",
            "/api/games",
            r#"{"strategy":"torres"}"#,
        )
        .await
        else {
            break;
        };
        let id = game["id"].as_str().unwrap_or_default().to_string();
        let starts = game["start_squares"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut text = starts
            .get(round % starts.len().max(1))
            .and_then(Value::as_str)
            .unwrap_or("d3")
            .to_string();
        round += 7;
        let path = format!("/api/games/{id}/moves");
        loop {
            let body = serde_json::json!({ "move": text }).to_string();
            let Some((200, answer)) = timed(&mut client, &mut tally, "POST", &path, &body).await
            else {
                break;
            };
            game = answer["game"].clone();
            if !game["end"].is_null() || Instant::now() >= until {
                break;
            }
            text = game["black_moves"][0]
                .as_str()
                .unwrap_or_default()
                .to_string();
        }
        if !game["end"].is_null() {
            tally.games += 1;
        }
    }
    tally
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "127.0.0.1:8061".into());
    let games: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let seconds: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let flood: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);

    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..games)
        .map(|seed| tokio::spawn(player(addr.clone(), until, seed)))
        .collect();
    let mut total = Tally::default();
    for task in tasks {
        let tally = task.await.expect("a client task");
        total.requests += tally.requests;
        total.games += tally.games;
        total.io_errors += tally.io_errors;
        for (status, count) in tally.statuses {
            *total.statuses.entry(status).or_default() += count;
        }
        total.latencies.extend(tally.latencies);
    }
    let elapsed = started.elapsed().as_secs_f64();
    total.latencies.sort();
    println!("clients            {games} concurrent games, {seconds} s");
    println!("requests           {}", total.requests);
    println!("requests/s         {:.0}", total.requests as f64 / elapsed);
    println!("games to the end   {}", total.games);
    println!(
        "latency p50/p99/max {:.2} / {:.2} / {:.2} ms",
        percentile(&total.latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&total.latencies, 0.99).as_secs_f64() * 1e3,
        total
            .latencies
            .last()
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
            * 1e3
    );
    println!("statuses           {:?}", total.statuses);
    println!("connection errors  {}", total.io_errors);

    if flood > 0 {
        let mut client = Client::connect(&addr).await.expect("connect for the flood");
        let mut statuses: BTreeMap<u16, u64> = BTreeMap::new();
        for _ in 0..flood {
            let (status, _) = client
                .request("POST", "/api/games", r#"{"strategy":"torres"}"#)
                .await
                .expect("a flood request");
            *statuses.entry(status).or_default() += 1;
        }
        println!("flood of new games {flood}: statuses {statuses:?}");
    }
}
