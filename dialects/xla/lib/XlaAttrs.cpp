//===- XlaAttrs.cpp - xla dialect attributes ------------------------------===//
//
// #xla.indexing_map: its syntax (one or more string literals) and the
// structural check of XLA's indexing map text, which also yields the
// variable and result counts the op verifiers compare operands against.
//
//===----------------------------------------------------------------------===//

#include "rxla/Dialect/Xla/IR/XlaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cctype>

using namespace mlir;
using namespace rxla::xla;

#define GET_ATTRDEF_CLASSES
#include "rxla/Dialect/Xla/IR/XlaAttrs.cpp.inc"

void XlaDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "rxla/Dialect/Xla/IR/XlaAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// The structure of an indexing map
//
//   map        := '(' names ')' ['[' names ']'] ['{' names '}'] '->' '(' [expr {',' expr}] ')'
//                 [',' 'domain' ':' [decl {',' decl}] {',' constraint}] [',']
//                 [',' 'is_simplified' ':' ('true' | 'false')]
//               | 'UNDEFINED'
//   decl       := name 'in' interval          (every variable, in declaration order)
//   constraint := expr 'in' interval
//   interval   := '[' ['-'] int ',' ['-'] int ']'
//   expr       := term {('+' | '-') term}
//   term       := unary {('*' | 'floordiv' | 'floorDiv' | 'ceildiv' | 'mod' | '/' | '%') unary}
//   unary      := '-' unary | primary
//   primary    := int | name | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
//
// This is the grammar of XLA's indexing map text (and of rxla's Rust
// indexing library, lowering/indexing). Names in expressions must be
// variables declared in the header.
//===----------------------------------------------------------------------===//

namespace {
enum class TokKind { Ident, Int, Punct, End };

struct Token {
  TokKind kind;
  StringRef text;
  size_t offset;
};

class MapChecker {
public:
  MapChecker(StringRef text, function_ref<InFlightDiagnostic()> emitError)
      : text(text), emitError(emitError) {}

  FailureOr<IndexingMapInfo> run() {
    if (text.trim() == "UNDEFINED") {
      IndexingMapInfo info;
      info.undefined = true;
      return info;
    }
    if (failed(tokenize()))
      return failure();
    IndexingMapInfo info;
    SmallVector<StringRef> dims, ranges, runtimes;
    if (failed(parseNames("(", ")", dims, "dimension")))
      return failure();
    if (isPunct("[") && failed(parseNames("[", "]", ranges, "range variable")))
      return failure();
    if (isPunct("{") && failed(parseNames("{", "}", runtimes, "runtime variable")))
      return failure();
    if (failed(expectPunct("->", "after the variables")) ||
        failed(expectPunct("(", "to open the results")))
      return failure();
    if (!isPunct(")")) {
      do {
        if (failed(parseExpr()))
          return failure();
        ++info.numResults;
      } while (consumePunct(","));
    }
    if (failed(expectPunct(")", "to close the results")))
      return failure();

    SmallVector<StringRef> all(dims);
    all.append(ranges);
    all.append(runtimes);
    if (consumePunct(",")) {
      if (isIdent("domain")) {
        ++pos;
        if (failed(expectPunct(":", "after 'domain'")))
          return failure();
        if (failed(parseDomain(all, info.numConstraints)))
          return failure();
      } else if (!atEnd() && !isIsSimplified()) {
        return error("expected 'domain:' after the results");
      }
    }
    if (isIsSimplified()) {
      pos += 2;
      if (!isIdent("true") && !isIdent("false"))
        return error("expected 'true' or 'false' after 'is_simplified:'");
      ++pos;
    }
    if (!atEnd())
      return error("unexpected text after the map");
    info.numDims = dims.size();
    info.numRangeVars = ranges.size();
    info.numRuntimeVars = runtimes.size();
    return info;
  }

private:
  LogicalResult tokenize() {
    static const char *const puncts[] = {"->", "(", ")", "[", "]", "{", "}", ",",
                                         ":",  "+", "-", "*", "/", "%"};
    size_t i = 0;
    while (i < text.size()) {
      char c = text[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      size_t start = i;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (i < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
          ++i;
        tokens.push_back({TokKind::Ident, text.slice(start, i), start});
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
          ++i;
        tokens.push_back({TokKind::Int, text.slice(start, i), start});
        continue;
      }
      bool matched = false;
      for (const char *p : puncts) {
        if (text.substr(i).starts_with(p)) {
          size_t len = StringRef(p).size();
          tokens.push_back({TokKind::Punct, text.substr(i, len), i});
          i += len;
          matched = true;
          break;
        }
      }
      if (!matched) {
        pos = tokens.size();
        tokens.push_back({TokKind::End, "", i});
        return error(Twine("unexpected character '") + Twine(c) + "'");
      }
    }
    tokens.push_back({TokKind::End, "", text.size()});
    return success();
  }

  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(pos + ahead, tokens.size() - 1)];
  }
  bool atEnd() const { return peek().kind == TokKind::End; }
  bool isPunct(StringRef p, size_t ahead = 0) const {
    return peek(ahead).kind == TokKind::Punct && peek(ahead).text == p;
  }
  bool isIdent(StringRef name) const {
    return peek().kind == TokKind::Ident && peek().text == name;
  }
  bool isIsSimplified() const { return isIdent("is_simplified") && isPunct(":", 1); }
  bool consumePunct(StringRef p) {
    if (!isPunct(p))
      return false;
    ++pos;
    return true;
  }
  LogicalResult expectPunct(StringRef p, const Twine &context) {
    if (consumePunct(p))
      return success();
    return error(Twine("expected '") + p + "' " + context);
  }

  static bool isKeyword(StringRef name) {
    return name == "floordiv" || name == "floorDiv" || name == "ceildiv" ||
           name == "mod" || name == "min" || name == "max" || name == "in" ||
           name == "domain" || name == "is_simplified" || name == "true" ||
           name == "false";
  }

  LogicalResult parseNames(StringRef open, StringRef close,
                           SmallVectorImpl<StringRef> &names, StringRef what) {
    if (failed(expectPunct(open, Twine("to open the ") + what + "s")))
      return failure();
    if (consumePunct(close))
      return success();
    do {
      const Token &tok = peek();
      if (tok.kind != TokKind::Ident)
        return error(Twine("expected a ") + what + " name");
      // Names start with a letter and are not words of the format.
      if (isKeyword(tok.text) || tok.text.starts_with("_"))
        return error(Twine("'") + tok.text + "' cannot be a variable name");
      if (!declared.insert(tok.text).second)
        return error(Twine("variable '") + tok.text + "' is declared twice");
      names.push_back(tok.text);
      ++pos;
    } while (consumePunct(","));
    return expectPunct(close, Twine("to close the ") + what + "s");
  }

  // Parentheses and min/max nest; bound the recursion so that no text can
  // exhaust the stack.
  static constexpr unsigned kMaxNesting = 256;

  LogicalResult parseExpr() {
    if (++depth > kMaxNesting)
      return error(Twine("expression nests deeper than ") + Twine(kMaxNesting) + " levels");
    if (failed(parseTerm()))
      return failure();
    while (isPunct("+") || isPunct("-")) {
      ++pos;
      if (failed(parseTerm()))
        return failure();
    }
    --depth;
    return success();
  }

  LogicalResult parseTerm() {
    if (failed(parseUnary()))
      return failure();
    while (isPunct("*") || isPunct("/") || isPunct("%") || isIdent("floordiv") ||
           isIdent("floorDiv") || isIdent("ceildiv") || isIdent("mod")) {
      ++pos;
      if (failed(parseUnary()))
        return failure();
    }
    return success();
  }

  LogicalResult parseUnary() {
    while (consumePunct("-"))
      continue;
    const Token &tok = peek();
    if (tok.kind == TokKind::Int) {
      uint64_t value;
      // Up to 2^63, the magnitude of the most negative 64-bit integer.
      if (tok.text.getAsInteger(10, value) ||
          value > static_cast<uint64_t>(INT64_MAX) + 1)
        return error(Twine("integer ") + tok.text + " does not fit in 64 bits");
      ++pos;
      return success();
    }
    if (consumePunct("(")) {
      if (failed(parseExpr()))
        return failure();
      return expectPunct(")", "to close a parenthesized expression");
    }
    if (tok.kind == TokKind::Ident && (tok.text == "min" || tok.text == "max")) {
      ++pos;
      if (failed(expectPunct("(", Twine("after '") + tok.text + "'")) ||
          failed(parseExpr()) ||
          failed(expectPunct(",", "between the operands of min/max")) ||
          failed(parseExpr()))
        return failure();
      return expectPunct(")", "to close min/max");
    }
    if (tok.kind == TokKind::Ident && !isKeyword(tok.text)) {
      if (!declared.contains(tok.text))
        return error(Twine("'") + tok.text + "' is not a variable of the map");
      ++pos;
      return success();
    }
    return error("expected an expression");
  }

  LogicalResult parseInterval() {
    if (failed(expectPunct("[", "to open an interval")))
      return failure();
    for (int bound = 0; bound < 2; ++bound) {
      bool negative = consumePunct("-");
      const Token &tok = peek();
      uint64_t value;
      if (tok.kind != TokKind::Int)
        return error("expected an integer bound");
      if (tok.text.getAsInteger(10, value) ||
          value > static_cast<uint64_t>(INT64_MAX) + (negative ? 1 : 0))
        return error(Twine("bound ") + (negative ? "-" : "") + tok.text +
                     " does not fit in 64 bits");
      ++pos;
      if (bound == 0 && failed(expectPunct(",", "between the bounds of an interval")))
        return failure();
    }
    return expectPunct("]", "to close an interval");
  }

  LogicalResult parseDomain(ArrayRef<StringRef> vars, unsigned &numConstraints) {
    for (auto [i, name] : llvm::enumerate(vars)) {
      if (i > 0 && !consumePunct(",")) {
        if (atEnd() || isIsSimplified())
          return error(Twine("the domain of '") + name + "' is missing");
        return error("expected ',' between domain entries");
      }
      const Token &tok = peek();
      if (tok.kind != TokKind::Ident || tok.text != name)
        return error(Twine("expected the domain of '") + name +
                     "' (every variable in declaration order)");
      ++pos;
      if (!isIdent("in"))
        return error(Twine("expected 'in' after '") + name + "'");
      ++pos;
      if (failed(parseInterval()))
        return failure();
    }
    // Constraints, each preceded by a comma (none before the first when the
    // map has no variables).
    while (!atEnd() && !isIsSimplified()) {
      if ((!vars.empty() || numConstraints > 0) && !consumePunct(","))
        return error("expected ',' between domain entries");
      if (atEnd() || isIsSimplified())
        break; // a trailing comma
      if (failed(parseExpr()))
        return failure();
      if (!isIdent("in"))
        return error("expected 'in' after a constraint expression");
      ++pos;
      if (failed(parseInterval()))
        return failure();
      ++numConstraints;
    }
    return success();
  }

  LogicalResult error(const Twine &message) {
    if (emitError) {
      size_t offset = peek().offset;
      std::string near = text.substr(offset, 24).str();
      auto diag = emitError() << "invalid indexing map: " << message;
      if (offset >= text.size())
        diag << " at the end of \"" << text << "\"";
      else
        diag << " at offset " << offset << " ('" << near
             << (offset + 24 < text.size() ? "..." : "") << "')";
    }
    return failure();
  }

  StringRef text;
  function_ref<InFlightDiagnostic()> emitError;
  SmallVector<Token> tokens;
  size_t pos = 0;
  unsigned depth = 0;
  llvm::StringSet<> declared;
};
} // namespace

FailureOr<IndexingMapInfo>
rxla::xla::analyzeIndexingMap(StringRef text,
                              function_ref<InFlightDiagnostic()> emitError) {
  return MapChecker(text, emitError).run();
}

//===----------------------------------------------------------------------===//
// #xla.indexing_map<"...">
//===----------------------------------------------------------------------===//

IndexingMapInfo rxla::xla::indexingMapInfoOrEmpty(StringRef text) {
  FailureOr<IndexingMapInfo> info = analyzeIndexingMap(text);
  return succeeded(info) ? *info : IndexingMapInfo{};
}

LogicalResult IndexingMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      StringRef text, IndexingMapInfo info) {
  FailureOr<IndexingMapInfo> analyzed = analyzeIndexingMap(text, emitError);
  if (failed(analyzed))
    return failure();
  if (!(*analyzed == info))
    return emitError() << "indexing map counts do not match its text";
  return success();
}

// Collapses runs of whitespace to one space and trims both ends.
static std::string normalizeIndexingMapText(StringRef text) {
  std::string out;
  bool pendingSpace = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace)
      out += ' ';
    pendingSpace = false;
    out += c;
  }
  return out;
}

IndexingMapAttr
rxla::xla::getIndexingMapAttr(MLIRContext *context, StringRef text,
                              function_ref<InFlightDiagnostic()> emitError) {
  std::string normalized = normalizeIndexingMapText(text);
  // Analyzed once: the counts become part of the attribute.
  FailureOr<IndexingMapInfo> info = analyzeIndexingMap(normalized, emitError);
  if (failed(info))
    return {};
  return IndexingMapAttr::get(context, normalized, *info);
}

Attribute IndexingMapAttr::parse(AsmParser &parser, Type) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  std::string text, piece;
  if (parser.parseString(&piece))
    return {};
  text += piece;
  while (succeeded(parser.parseOptionalString(&piece)))
    text += piece;
  if (parser.parseGreater())
    return {};
  return getIndexingMapAttr(parser.getContext(), text,
                            [&] { return parser.emitError(loc); });
}

void IndexingMapAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printString(getText());
  printer << '>';
}
