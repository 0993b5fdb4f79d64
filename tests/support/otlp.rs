//! A local OTLP/HTTP receiver on 127.0.0.1 for the trace tests: it keeps every export
//! request's body, headers and path, and decodes the protobuf into spans, so tests check
//! the span tree and the attributes of real traces. Included by the tests that need it
//! (`#[path = "support/otlp.rs"] mod otlp_receiver;`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::Value;

#[derive(Default)]
pub struct Received {
    pub bodies: Vec<Vec<u8>>,
    pub headers: Vec<BTreeMap<String, String>>,
    pub paths: Vec<String>,
}

/// An OTLP/HTTP receiver on 127.0.0.1, serving from its own thread.
pub struct Receiver {
    pub base_url: String,
    pub got: Arc<Mutex<Received>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Receiver {
    pub fn start() -> Receiver {
        let got = Arc::new(Mutex::new(Received::default()));
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let shared = got.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                let app = Router::new()
                    .route("/{*path}", post(receive))
                    .with_state(shared);
                tokio::select! {
                    _ = axum::serve(listener, app) => {}
                    _ = stopped => {}
                }
            });
        });
        let addr = rx.recv().unwrap();
        Receiver {
            base_url: format!("http://{addr}"),
            got,
            _stop: stop,
        }
    }

    pub fn spans(&self) -> Vec<Span> {
        let got = self.got.lock().unwrap();
        got.bodies
            .iter()
            .flat_map(|b| {
                ExportTraceServiceRequest::decode(b.as_slice())
                    .expect("an OTLP protobuf export request")
                    .resource_spans
            })
            .flat_map(|r| r.scope_spans)
            .flat_map(|s| s.spans)
            .collect()
    }

    pub fn raw(&self) -> Vec<u8> {
        self.got.lock().unwrap().bodies.concat()
    }
}

async fn receive(
    State(got): State<Arc<Mutex<Received>>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> ([(&'static str, &'static str); 1], Vec<u8>) {
    let mut g = got.lock().unwrap();
    g.paths.push(uri.path().to_string());
    g.headers.push(
        headers
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
    );
    g.bodies.push(body.to_vec());
    ([("content-type", "application/x-protobuf")], Vec::new())
}

pub fn attr(span: &Span, key: &str) -> Option<Value> {
    let kv = span.attributes.iter().find(|a| a.key == key)?;
    Some(match kv.value.as_ref()?.value.as_ref()? {
        AnyValue::StringValue(s) => Value::from(s.clone()),
        AnyValue::BoolValue(b) => Value::from(*b),
        AnyValue::IntValue(i) => Value::from(*i),
        AnyValue::DoubleValue(d) => Value::from(*d),
        AnyValue::ArrayValue(a) => Value::from(
            a.values
                .iter()
                .map(|v| match v.value.as_ref() {
                    Some(AnyValue::StringValue(s)) => Value::from(s.clone()),
                    other => Value::from(format!("{other:?}")),
                })
                .collect::<Vec<Value>>(),
        ),
        other => Value::from(format!("{other:?}")),
    })
}

pub fn children<'a>(spans: &'a [Span], parent: &Span) -> Vec<&'a Span> {
    spans
        .iter()
        .filter(|s| s.parent_span_id == parent.span_id)
        .collect()
}

pub fn root(spans: &[Span]) -> &Span {
    let roots: Vec<&Span> = spans
        .iter()
        .filter(|s| s.parent_span_id.is_empty())
        .collect();
    assert_eq!(roots.len(), 1, "one trace, one root: {spans:#?}");
    assert!(spans.iter().all(|s| s.trace_id == roots[0].trace_id));
    roots[0]
}
