//! Request bodies written once as JSON text, so that the same bytes are signed and sent.

/// A minimal JSON writer for the small bodies this service takes.
pub struct JsonWriter {
    out: String,
    /// Per open container: whether it already holds an element (so the next needs a comma).
    filled: Vec<bool>,
    /// A key was just written: the next value is its value, not a new element.
    after_key: bool,
}

impl JsonWriter {
    pub fn object() -> Self {
        Self { out: String::from("{"), filled: vec![false], after_key: false }
    }

    pub fn array() -> Self {
        Self { out: String::from("["), filled: vec![false], after_key: false }
    }

    /// Writes the comma that separates this element from the previous one, if any.
    fn element(&mut self) {
        if std::mem::take(&mut self.after_key) {
            return;
        }
        if let Some(filled) = self.filled.last_mut() {
            if *filled {
                self.out.push(',');
            }
            *filled = true;
        }
    }

    pub fn key(&mut self, name: &str) {
        self.element();
        write_str(&mut self.out, name);
        self.out.push(':');
        self.after_key = true;
    }

    pub fn str(&mut self, value: &str) {
        self.element();
        write_str(&mut self.out, value);
    }

    /// A value that is already JSON (a number's text).
    pub fn raw(&mut self, json: &str) {
        self.element();
        self.out.push_str(json);
    }

    pub fn field_str(&mut self, name: &str, value: &str) {
        self.key(name);
        self.str(value);
    }

    pub fn field_raw(&mut self, name: &str, json: &str) {
        self.key(name);
        self.raw(json);
    }

    pub fn object_start(&mut self) {
        self.element();
        self.out.push('{');
        self.filled.push(false);
    }

    pub fn object_end(&mut self) {
        self.filled.pop();
        self.out.push('}');
    }

    pub fn array_start(&mut self) {
        self.element();
        self.out.push('[');
        self.filled.push(false);
    }

    pub fn array_end(&mut self) {
        self.filled.pop();
        self.out.push(']');
    }

    pub fn finish(mut self) -> String {
        let close = if self.out.starts_with('{') { '}' } else { ']' };
        self.out.push(close);
        self.out
    }
}

/// A JSON string literal.
pub fn write_str(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                for nibble in [(c as u32) >> 4, (c as u32) & 0xf] {
                    out.push(char::from_digit(nibble, 16).unwrap_or('0'));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_nested_bodies_that_parse_back() {
        let mut w = JsonWriter::object();
        w.field_str("orderId", "0x\"a\\b\n\u{1}é");
        w.key("list");
        w.array_start();
        w.str("x");
        w.object_start();
        w.field_raw("n", "1.5");
        w.object_end();
        w.array_end();
        w.field_raw("b", "true");
        let text = w.finish();
        assert_eq!(text, r#"{"orderId":"0x\"a\\b\n\u0001é","list":["x",{"n":1.5}],"b":true}"#);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["orderId"], "0x\"a\\b\n\u{1}é");
        assert_eq!(JsonWriter::array().finish(), "[]");
        assert_eq!(JsonWriter::object().finish(), "{}");
    }
}
