// Text renderers of the layout engine's answers: tables, CSV, Markdown, JSON.
// Headless functions of a layout; the CLI, documentation builds and the app's
// exports all call these.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/request.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

// "v3:L17", "v0[15:0]:L17", "v[1:0]:L5", "v0[31:30]+v1[3:0]:L5".
std::string location_label(const Location& loc, int element_bits_in_slot);
// "A[3][5]", "A[b1][3][5]" for multi-block operands.
std::string element_label(Operand op, const Element& e, int blocks);

std::string render_layout(const Query& q, const OperandLayout& layout, View view, Format format);
std::string render_info(const Query& q, Format format);
// The facts `info` tabulates, as (fact, value) rows: the vendor's own facts
// (AMD: builtin, opcode, cycles...; NVIDIA: PTX spelling, target, registers),
// for front ends that show them their own way.
std::vector<std::pair<std::string, std::string>> instruction_facts(const Query& q);
std::string render_where(const Query& q, const OperandLayout& layout, const Element& e, Format format);
// Several elements (a whole row or column) in one table; JSON: an array of render_where objects.
std::string render_where_many(const Query& q, const OperandLayout& layout, const std::vector<Element>& elements,
                              Format format);
std::string render_which(const Query& q, const OperandLayout& layout, int reg, int lane, Format format);
// Everything one lane holds, register by register (`which --lane L` without --reg).
std::string render_lane(const Query& q, const OperandLayout& layout, int lane, Format format);
std::string render_trace(const Query& q, const Trace& t, Format format);
// `search` given: on each target only what search() (search.hpp) finds for it, best first
// (an Error when nothing matches on any target).
std::string render_list(const Catalog& cat, const std::vector<const Target*>& targets, Format format,
                        std::string_view search = {});

// JSON string escaping (for callers that add fields of their own).
std::string json_string(std::string_view s);
// For renderers of their own (tiles): the common JSON header fields ("arch" ...
// "modifiers", no braces), the one-line title, and a grid of cells as a table,
// CSV or Markdown.
std::string query_header_json(const Query& q);
// gfx1250's evidence of a layout (layout_evidence) as the JSON fields "confidence",
// "confidence_why", "confidence_sources", "alternatives" (no braces), and as the
// "Confidence: ..." lines of text output; "" where the evidence is empty (other families).
std::string evidence_json(const Evidence& e);
std::string evidence_text(const Evidence& e);
std::string query_title(const Query& q);
std::string render_grid(const std::vector<std::vector<std::string>>& rows, Format format);
// CSV and Markdown print one table each (RFC 4180; GitHub Flavored Markdown's
// table extension): prose that applies to every row (a note, the evidence's
// confidence) becomes a last column "note"; nothing else is printed around it.
// with_note adds that column (rows unchanged when `note` is empty);
// render_table_or_one prints `rows` so for CSV and Markdown, and for the
// aligned table the grid followed by the prose as it is.
std::vector<std::vector<std::string>> with_note(std::vector<std::vector<std::string>> rows, const std::string& note);
std::string render_table_or_one(const std::vector<std::vector<std::string>>& rows, Format format, const std::string& prose);

// Output produced piece by piece: a renderer appends to text() and calls
// maybe_flush(); about every MiB the sink hands what it holds to `flush` (a
// file being written, standard output), so a large answer is never held whole
// in memory. finish() hands over the rest.
class TextSink {
public:
    explicit TextSink(std::function<void(std::string_view)> flush) : flush_(std::move(flush)) {}
    std::string& text() { return buf_; }
    void append(std::string_view s) {
        buf_ += s;
        maybe_flush();
    }
    void maybe_flush() {
        if (buf_.size() >= kChunk) drain();
    }
    void finish() {
        if (!buf_.empty()) drain();
    }

private:
    static constexpr size_t kChunk = size_t(1) << 20;
    void drain() {
        flush_(buf_);
        buf_.clear();
    }
    std::function<void(std::string_view)> flush_;
    std::string buf_;
};

// A grid produced row by row: `row(i, cells)` fills row i (0 is the header) of
// `count`; called twice per row for tables and Markdown (column widths first),
// once for CSV. The bytes are those of render_grid over the same rows.
void stream_grid(int count, const std::function<void(int, std::vector<std::string>&)>& row, Format format, TextSink& out);

}  // namespace lanescope
