// Where frames go: a GLFW window (interactive, or hidden for screenshots under
// X) or, with no display at all, an EGL context on Mesa's surfaceless
// platform. Screenshots and headless runs render into an offscreen FBO.
#pragma once

#include "model/settings.hpp"

#include <glad/gl.h>

#include <string>
#include <vector>

struct GLFWwindow;

namespace lsapp {

// An RGBA framebuffer object to render a frame (or a tile grid) into.
struct Offscreen {
    GLuint fbo = 0, color = 0;
    int width = 0, height = 0;
    bool texture_ = false;  // color is a texture (else a renderbuffer)
    bool create(int w, int h, bool as_texture, std::string* error);
    void destroy();
    // Top-down RGBA rows.
    std::vector<unsigned char> read_rgba() const;
};

class Platform {
public:
    enum class Mode { Window, HiddenWindow, Surfaceless };

    // Creates the context and initialises Dear ImGui's backends. On failure
    // returns false with a message saying what is missing.
    bool open(Mode mode, int width, int height, std::string* error);
    void close();

    Mode mode() const { return mode_; }
    bool interactive() const { return mode_ == Mode::Window; }
    GLFWwindow* window() const { return window_; }
    float content_scale() const { return scale_; }

    void new_frame();           // backend NewFrame (+ display size when headless)
    void render();              // ImGui draw data into the current target
    void present();             // swap (window) or nothing
    bool should_close() const;
    void wait_events();         // blocks until input arrives
    void poll_events();
    void framebuffer_size(int* w, int* h) const;
    // The last rendered frame, top-down RGBA.
    std::vector<unsigned char> read_frame(int* w, int* h) const;

private:
    Mode mode_ = Mode::Window;
    GLFWwindow* window_ = nullptr;
    void* egl_display_ = nullptr;
    void* egl_context_ = nullptr;
    Offscreen target_;
    float scale_ = 1.0f;
    int width_ = 0, height_ = 0;
    double last_time_ = 0;
    bool imgui_ready_ = false;
};

// True when an X or Wayland display is named in the environment.
bool display_available();
// The work areas of the connected monitors, the primary first (initialises GLFW; empty when it cannot).
std::vector<ScreenArea> monitor_areas();

}  // namespace lsapp
