//! The JSON log lines of `--log-format json`: one object a line, as
//! tracing-subscriber's JSON format writes them (`timestamp`, `level`,
//! `fields`, `target`), but with each field in its JSON type: a number
//! as a number (`"ms":26.8`), a list as an array
//! (`"brands":["lumen-health: added"]`), where the stock format writes
//! both as strings.
//!
//! tracing records no lists: a list goes in as a [`JsonField`], which it
//! passes as an error value, and which [`JsonLines`] finds again by its
//! type.

use serde_json::{Map, Number, Value};
use std::fmt;
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// A field's value as JSON: `brands = report::json_log::field(&list)`.
#[derive(Debug)]
pub struct JsonField(pub Value);

impl fmt::Display for JsonField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for JsonField {}

/// `value` as a field of a JSON log line (see the module).
pub fn field(value: impl serde::Serialize) -> JsonField {
    JsonField(serde_json::to_value(value).unwrap_or(Value::Null))
}

/// The formatter of `--log-format json`.
pub struct JsonLines;

impl<S, N> FormatEvent<S, N> for JsonLines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut time = String::new();
        SystemTime.format_time(&mut Writer::new(&mut time))?;
        let mut fields = Fields(Map::new());
        event.record(&mut fields);
        let meta = event.metadata();
        let mut line = Map::new();
        line.insert("timestamp".into(), Value::String(time));
        line.insert("level".into(), Value::String(meta.level().to_string()));
        line.insert("fields".into(), Value::Object(fields.0));
        line.insert("target".into(), Value::String(meta.target().to_string()));
        writeln!(writer, "{}", Value::Object(line))
    }
}

/// An event's fields, each in its JSON type.
struct Fields(Map<String, Value>);

impl Fields {
    fn put(&mut self, field: &Field, value: Value) {
        self.0.insert(field.name().to_string(), value);
    }
}

impl Visit for Fields {
    fn record_f64(&mut self, field: &Field, value: f64) {
        let n = Number::from_f64(value).map_or(Value::Null, Value::Number);
        self.put(field, n);
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, Value::from(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, Value::from(value));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, Value::Bool(value));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field, Value::String(value.to_string()));
    }
    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        match value.downcast_ref::<JsonField>() {
            Some(JsonField(v)) => self.put(field, v.clone()),
            None => self.put(field, Value::String(value.to_string())),
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.put(field, Value::String(format!("{value:?}")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn numbers_and_lists_keep_their_json_types() {
        let buffer = Buffer::default();
        let out = buffer.clone();
        let subscriber = tracing_subscriber::fmt()
            .event_format(JsonLines)
            .with_writer(move || out.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let brands = vec!["lumen-health: added".to_string()];
            tracing::info!(
                brands = &field(&brands) as &(dyn std::error::Error + 'static),
                ms = 26.8,
                errors = 0usize,
                cause = %"edit",
                "rebuilt"
            );
        });
        let text = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
        let line: Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(
            line["fields"]["brands"],
            serde_json::json!(["lumen-health: added"])
        );
        assert_eq!(line["fields"]["ms"], serde_json::json!(26.8));
        assert_eq!(line["fields"]["errors"], serde_json::json!(0));
        assert_eq!(line["fields"]["cause"], "edit");
        assert_eq!(line["fields"]["message"], "rebuilt");
        assert_eq!(line["level"], "INFO");
        assert!(line["timestamp"].as_str().unwrap().ends_with('Z'), "{line}");
    }
}
