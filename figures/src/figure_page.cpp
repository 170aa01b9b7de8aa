// A figure that must fit a page (FigureSpec::fit_height, figure --height): laid out once at
// its width; when that is too tall, a scaled GEMM's scale operands wrap their rows side by side,
// then the whole figure is laid out narrower (the fonts kept, the cells smaller) until it fits.
#include "figure_marks.hpp"
#include "lanescope/figures.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace lanescope::figures {

namespace {

constexpr double kPageHeightPt = 650;  // 9 in: a US letter page's text height with 1 in margins
constexpr int kWidthScan = 12;  // widths tried from the asked one down to a quarter of it
constexpr int kWidthSteps = 5;  // then bisection steps between the widest fit and the step above it

std::string points(double units, FigureFormat format) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0fpt", units * pt_per_unit(format));
    return buf;
}

// The widest width in [W/4, W] at which the figure is at most `limit` tall, else the one at which
// it is least tall. A height is no monotone function of the width (narrower cells may drop their
// labels; scale panels of a fixed font wrap more), so the widths are scanned, then the step above
// the widest fit is bisected.
Figure narrowest_fit(const FigureSpec& spec, bool wrap, double limit) {
    FigureSpec s = spec;
    auto at = [&](double w) {
        s.fit_width = w;
        return build_figure_laid_out(s, wrap);
    };
    const double step = spec.fit_width * 0.75 / kWidthScan;
    std::optional<Figure> least;
    for (int n = 1; n <= kWidthScan; ++n) {
        const double w = spec.fit_width - n * step;
        Figure f = at(w);
        if (f.height <= limit) {
            double lo = w, hi = w + step;  // lo fits; hi did not
            for (int k = 0; k < kWidthSteps; ++k) {
                Figure g = at((lo + hi) / 2);
                if (g.height <= limit) lo = (lo + hi) / 2, f = std::move(g);
                else hi = (lo + hi) / 2;
            }
            return f;
        }
        if (!least || f.height < least->height) least = std::move(f);
    }
    return std::move(*least);
}

Figure fit_to_page(const FigureSpec& spec, Figure tall) {
    Figure::PageFit pf{true, spec.fit_width, tall.height, spec.fit_height, ""};
    Figure best = std::move(tall);
    bool wrap = false;
    if (Figure wrapped = build_figure_laid_out(spec, true); wrapped.height < best.height) {
        best = std::move(wrapped), wrap = true;
        pf.how = "the scale operands' rows wrapped side by side";
    }
    if (best.height > spec.fit_height) {
        // Narrower only where that is less tall (scale panels of a fixed font wrap more when narrow).
        if (Figure narrow = narrowest_fit(spec, wrap, spec.fit_height); narrow.height < best.height) {
            best = std::move(narrow);
            pf.how += std::string(pf.how.empty() ? "" : ", and ") + "laid out narrower (every font kept, the cells smaller)";
        }
    }
    if (pf.how.empty()) pf.how = "no other layout is less tall";
    best.page_fit = pf;
    return best;
}

}  // namespace

Figure build_figure(const FigureSpec& spec) {
    Figure f = build_figure_laid_out(spec, false);
    if (spec.fit_width <= 0 || spec.fit_height <= 0 || f.height <= spec.fit_height) return f;
    return fit_to_page(spec, std::move(f));
}

std::string page_fit_note(const Figure& f, FigureFormat format) {
    const Figure::PageFit& p = f.page_fit;
    if (!p.applied) return "";
    return "taller than a page: " + points(p.tall_height, format) + " at " + points(p.asked_width, format) + " wide, over the " +
           points(p.height_limit, format) + " limit (--height); " + p.how + "; drawn " + points(f.width, format) + " wide, " +
           points(f.height, format) + " tall" +
           (f.height > p.height_limit ? " (still over: its headings, legend and labels keep their fonts; a larger "
                                        "--height, a smaller --min-font or --crop)"
                                      : "");
}

double parse_height_pt(const std::string& s) {
    if (s == "page") return kPageHeightPt;
    if (s == "none" || s == "natural") return 0;
    if (s != "column") {
        try {
            return parse_width_pt(s);
        } catch (const Error&) {
        }
    }
    throw Error("bad height '" + s + "'; legal: page (650pt, a US letter page's text height), none (any height), or a length "
                "of at least 50pt such as 600pt, 9in, 24cm");
}

}  // namespace lanescope::figures
