// Text renderers of the layout engine's answers: tables, CSV, Markdown, JSON.
// Headless functions of a layout; the CLI, documentation builds and the app's
// exports all call these.
#pragma once

#include "lanescope/lanescope.hpp"

#include <string>
#include <utility>
#include <vector>

namespace lanescope {

enum class View { Matrix, Registers };
enum class Format { Table, Csv, Markdown, Json };

// What one query is about; the header of every rendering.
struct Query {
    const Instruction* ins = nullptr;
    const Target* target = nullptr;
    ResolvedModifiers mods;
};

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
std::string render_trace(const Query& q, const Trace& t, Format format);
std::string render_list(const Catalog& cat, const std::vector<const Target*>& targets, Format format);

// JSON string escaping (for callers that add fields of their own).
std::string json_string(std::string_view s);
// For renderers of their own (tiles): the common JSON header fields ("arch" ...
// "modifiers", no braces), the one-line title, and a grid of cells as a table,
// CSV or Markdown.
std::string query_header_json(const Query& q);
std::string query_title(const Query& q);
std::string render_grid(const std::vector<std::vector<std::string>>& rows, Format format);

}  // namespace lanescope
