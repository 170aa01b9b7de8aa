#include "ui/platform.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace lsapp {

namespace {
std::string glfw_error_text;
void on_glfw_error(int, const char* text) { glfw_error_text = text ? text : "unknown GLFW error"; }

double now_seconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

GLADapiproc egl_proc(const char* name) { return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name)); }
GLADapiproc glfw_proc(const char* name) { return reinterpret_cast<GLADapiproc>(glfwGetProcAddress(name)); }
}  // namespace

bool display_available() {
    const char* x = std::getenv("DISPLAY");
    const char* w = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (w && *w);
}

std::vector<ScreenArea> monitor_areas() {
    std::vector<ScreenArea> out;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) return out;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* primary = glfwGetPrimaryMonitor();
    for (int i = -1; i < count; ++i) {
        GLFWmonitor* m = i < 0 ? primary : monitors[i];
        if (!m || (i >= 0 && m == primary)) continue;
        ScreenArea a;
        glfwGetMonitorWorkarea(m, &a.x, &a.y, &a.width, &a.height);
        if (a.width > 0 && a.height > 0) out.push_back(a);
    }
    return out;
}

bool Offscreen::create(int w, int h, bool as_texture, std::string* error) {
    destroy();
    width = w;
    height = h;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    if (as_texture) {
        glGenTextures(1, &color);
        glBindTexture(GL_TEXTURE_2D, color);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        // Nearest: the texture is drawn 1:1, so tiles and text stay crisp.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    } else {
        glGenRenderbuffers(1, &color);
        glBindRenderbuffer(GL_RENDERBUFFER, color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    }
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        if (error) *error = "cannot create a " + std::to_string(w) + "x" + std::to_string(h) + " offscreen framebuffer";
        destroy();
        return false;
    }
    texture_ = as_texture;
    return true;
}

void Offscreen::destroy() {
    if (fbo) glDeleteFramebuffers(1, &fbo);
    if (color) {
        if (texture_) glDeleteTextures(1, &color);
        else glDeleteRenderbuffers(1, &color);
    }
    fbo = color = 0;
}

std::vector<unsigned char> Offscreen::read_rgba() const {
    std::vector<unsigned char> px(static_cast<size_t>(width) * height * 4);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    // GL rows are bottom-up; PNG rows top-down.
    const size_t row = static_cast<size_t>(width) * 4;
    for (int y = 0; y < height / 2; ++y)
        std::swap_ranges(px.begin() + y * row, px.begin() + (y + 1) * row, px.begin() + (height - 1 - y) * row);
    return px;
}

bool Platform::open(Mode mode, int width, int height, std::string* error) {
    mode_ = mode;
    width_ = width;
    height_ = height;
    if (mode == Mode::Surfaceless) {
        auto get_platform_display =
            reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
        EGLDisplay dpy = get_platform_display
                             ? get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                             : EGL_NO_DISPLAY;
        EGLint major = 0, minor = 0;
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
            *error = "no display and no headless OpenGL: EGL's surfaceless platform (Mesa, package libgl1-mesa-dri "
                     "and libegl1) is not available";
            return false;
        }
        const EGLint config_attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                       EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
        EGLConfig config = nullptr;
        EGLint count = 0;
        eglChooseConfig(dpy, config_attrs, &config, 1, &count);
        eglBindAPI(EGL_OPENGL_API);
        const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        EGLContext ctx = eglCreateContext(dpy, count > 0 ? config : nullptr, EGL_NO_CONTEXT, ctx_attrs);
        if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
            *error = "EGL could not create an OpenGL 3.3 core context without a display";
            eglTerminate(dpy);
            return false;
        }
        egl_display_ = dpy;
        egl_context_ = ctx;
        if (!gladLoadGL(egl_proc)) {
            *error = "could not load OpenGL 3.3 functions through EGL";
            return false;
        }
    } else {
        glfwSetErrorCallback(on_glfw_error);
        if (!glfwInit()) {
            *error = "cannot open a window: " + glfw_error_text +
                     (display_available() ? "" : " (no DISPLAY is set; use --screenshot for a headless render)");
            return false;
        }
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_VISIBLE, mode == Mode::Window ? GLFW_TRUE : GLFW_FALSE);
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
        window_ = glfwCreateWindow(width, height, "lanescope", nullptr, nullptr);
        if (!window_) {
            *error = "cannot create an OpenGL 3.3 core window: " + glfw_error_text;
            glfwTerminate();
            return false;
        }
        glfwMakeContextCurrent(window_);
        glfwSwapInterval(mode == Mode::Window ? 1 : 0);
        if (!gladLoadGL(glfw_proc)) {
            *error = "could not load OpenGL 3.3 functions";
            return false;
        }
        if (mode == Mode::Window) {
            float sx = 1, sy = 1;
            glfwGetWindowContentScale(window_, &sx, &sy);
            scale_ = sx > 0 ? sx : 1.0f;
        }
    }
    if (mode != Mode::Window && !target_.create(width, height, false, error)) return false;

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the app saves its own settings
    if (mode == Mode::Window) io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    if (window_) ImGui_ImplGlfw_InitForOpenGL(window_, mode == Mode::Window);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    imgui_ready_ = true;
    last_time_ = now_seconds();
    return true;
}

void Platform::close() {
    if (imgui_ready_) {
        ImGui_ImplOpenGL3_Shutdown();
        if (window_) ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        imgui_ready_ = false;
    }
    target_.destroy();
    if (window_) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        window_ = nullptr;
    }
    if (egl_display_) {
        eglMakeCurrent(egl_display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (egl_context_) eglDestroyContext(egl_display_, egl_context_);
        eglTerminate(egl_display_);
        egl_display_ = egl_context_ = nullptr;
    }
}

void Platform::new_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    if (mode_ == Mode::Window) {
        ImGui_ImplGlfw_NewFrame();
    } else {
        // Offscreen: a fixed-size display, no real input.
        io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
        io.DisplayFramebufferScale = ImVec2(1, 1);
        const double t = now_seconds();
        io.DeltaTime = static_cast<float>(t > last_time_ ? t - last_time_ : 1e-4);
        last_time_ = t;
        if (window_) {
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        }
    }
}

void Platform::framebuffer_size(int* w, int* h) const {
    if (mode_ == Mode::Window) glfwGetFramebufferSize(window_, w, h);
    else *w = width_, *h = height_;
}

void Platform::render() {
    int w = 0, h = 0;
    framebuffer_size(&w, &h);
    glBindFramebuffer(GL_FRAMEBUFFER, target_.fbo);  // 0 (the window) when interactive
    glViewport(0, 0, w, h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Platform::present() {
    if (mode_ == Mode::Window) glfwSwapBuffers(window_);
    else glFinish();
}

bool Platform::should_close() const { return window_ && glfwWindowShouldClose(window_); }
void Platform::wait_events() {
    if (window_) glfwWaitEvents();
}
void Platform::poll_events() {
    if (window_) glfwPollEvents();
}

std::vector<unsigned char> Platform::read_frame(int* w, int* h) const {
    if (mode_ != Mode::Window) {
        *w = target_.width;
        *h = target_.height;
        return target_.read_rgba();
    }
    framebuffer_size(w, h);
    Offscreen view;
    view.width = *w;
    view.height = *h;
    glReadBuffer(GL_BACK);
    return view.read_rgba();  // fbo 0: the window's back buffer
}

}  // namespace lsapp
