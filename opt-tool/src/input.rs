//! Reading the input and splitting it at `// -----` (`--split-input-file`).

/// A piece of the input and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub text: String,
    pub first_line: usize,
}

impl Chunk {
    /// The chunk's text preceded by blank lines, so that the parser reports
    /// positions as lines of the whole file.
    pub fn source_with_file_positions(&self) -> String {
        "\n".repeat(self.first_line - 1) + &self.text
    }
}

/// Splits at lines that are exactly `// -----` (surrounding spaces allowed),
/// as mlir-opt does. Without `split`, the whole input is one chunk.
pub fn split(text: &str, split: bool) -> Vec<Chunk> {
    if !split {
        return vec![Chunk { text: text.to_string(), first_line: 1 }];
    }
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut first_line = 1;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim() == "// -----" {
            chunks.push(Chunk { text: std::mem::take(&mut current), first_line });
            first_line = index + 2;
        } else {
            current.push_str(line);
        }
    }
    chunks.push(Chunk { text: current, first_line });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_keeps_line_numbers() {
        let chunks = split("a\nb\n// -----\nc\n  // -----  \nd", true);
        assert_eq!(chunks.len(), 3);
        assert_eq!(chunks[1], Chunk { text: "c\n".into(), first_line: 4 });
        assert_eq!(chunks[2].first_line, 6);
        assert_eq!(chunks[2].source_with_file_positions(), "\n\n\n\n\nd");
    }

    #[test]
    fn no_split_is_one_chunk() {
        assert_eq!(split("a\n// -----\nb", false).len(), 1);
    }
}
