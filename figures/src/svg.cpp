// SVG 1.1 serialiser of the figure model. Text stays <text> (searchable,
// selectable); fonts are named by family with generic fall-backs.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

namespace lanescope::figures {

namespace {

void attr(std::string& out, const char* name, double v) {
    out += ' ';
    out += name;
    out += "=\"";
    append_number(out, v);
    out += '"';
}

const char* anchor_word(Anchor a) {
    switch (a) {
        case Anchor::Start: return "start";
        case Anchor::Middle: return "middle";
        case Anchor::End: return "end";
    }
    return "start";
}

}  // namespace

std::string to_svg(const Figure& f) {
    std::string out;
    out.reserve(256 + f.tiles.size() * 200 + f.texts.size() * 90);
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"";
    attr(out, "width", f.width);
    attr(out, "height", f.height);
    out += " viewBox=\"0 0 ";
    append_number(out, f.width);
    out += ' ';
    append_number(out, f.height);
    out += "\">\n<title>";
    append_xml(out, f.title + " \u2014 " + f.subtitle);
    out += "</title>\n<rect x=\"0\" y=\"0\"";
    attr(out, "width", f.width);
    attr(out, "height", f.height);
    out += " fill=\"" + f.background.hex() + "\"/>\n";
    out += "<g font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n";

    for (const Box& b : f.boxes) {
        out += "<rect";
        attr(out, "x", b.x);
        attr(out, "y", b.y);
        attr(out, "width", b.w);
        attr(out, "height", b.h);
        out += " fill=\"" + (b.filled ? b.fill.hex() : std::string("none")) + "\"";
        if (b.stroke_width > 0) {
            out += " stroke=\"" + b.stroke.hex() + "\"";
            attr(out, "stroke-width", b.stroke_width);
        }
        out += "/>\n";
    }

    out += "<g class=\"tiles\" stroke=\"" + f.tile_stroke.hex() + "\" stroke-width=\"0.5\" font-size=\"";
    append_number(out, f.tile_font);
    out += "\" text-anchor=\"middle\">\n";
    for (const Tile& t : f.tiles) {
        out += "<g class=\"tile\" id=\"" + t.id + "\"><rect";
        attr(out, "x", t.x);
        attr(out, "y", t.y);
        attr(out, "width", t.w);
        attr(out, "height", t.h);
        out += " fill=\"" + t.fill.hex() + "\"/><text";
        const double cx = t.x + t.w / 2;
        const double block_h = f.tile_line * static_cast<double>(t.lines.size());
        const double base = t.y + (t.h - block_h) / 2 + f.tile_line * 0.78;
        attr(out, "x", cx);
        attr(out, "y", base);
        out += " fill=\"" + t.ink.hex() + "\" stroke=\"none\">";
        for (size_t n = 0; n < t.lines.size(); ++n) {
            if (n == 0) {
                append_xml(out, t.lines[n]);
                continue;
            }
            out += "<tspan";
            attr(out, "x", cx);
            attr(out, "dy", f.tile_line);
            out += ">";
            append_xml(out, t.lines[n]);
            out += "</tspan>";
        }
        out += "</text></g>\n";
    }
    out += "</g>\n";

    for (const Line& l : f.lines) {
        out += "<line";
        attr(out, "x1", l.x1);
        attr(out, "y1", l.y1);
        attr(out, "x2", l.x2);
        attr(out, "y2", l.y2);
        out += " stroke=\"" + l.color.hex() + "\"";
        attr(out, "stroke-width", l.width);
        out += " stroke-linecap=\"square\"/>\n";
    }

    for (const Text& t : f.texts) {
        out += "<text";
        attr(out, "x", t.x);
        attr(out, "y", t.y);
        attr(out, "font-size", t.size);
        if (t.anchor != Anchor::Start) out += std::string(" text-anchor=\"") + anchor_word(t.anchor) + "\"";
        if (t.bold) out += " font-weight=\"bold\"";
        out += " fill=\"" + t.color.hex() + "\">";
        append_xml(out, t.text);
        out += "</text>\n";
    }
    out += "</g>\n</svg>\n";
    return out;
}

}  // namespace lanescope::figures
