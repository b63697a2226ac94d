// The web page's files (web/), embedded at build time with C23's #embed: the server serves them
// from the executable, and the daemon's exported map inlines some of them (docs/MAP.md), with no
// file read at run time. #embed (as CWorldMap and CGazetteer embed their data) rather than the
// assembler's .incbin: the compiler lists an #embed file among the object's dependencies, so editing
// a page's file rebuilds it; .incbin's files are not listed, and an edited script would stay stale.
//
// A new file in web/ gets its array and its line in `files` below (WebFiles' test checks that every
// file in web/ is here).
#include "onthemap_web.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char web_index_html[] = {
#embed "web/index.html"
};

static const unsigned char web_export_html[] = {
#embed "web/export.html"
};

static const unsigned char web_sw_js[] = {
#embed "web/sw.js"
};

static const unsigned char web_manifest_webmanifest[] = {
#embed "web/manifest.webmanifest"
};

static const unsigned char web_app_css[] = {
#embed "web/app.css"
};

static const unsigned char web_world_css[] = {
#embed "web/world.css"
};

static const unsigned char web_map_css[] = {
#embed "web/map.css"
};

static const unsigned char web_export_css[] = {
#embed "web/export.css"
};

static const unsigned char web_icon_svg[] = {
#embed "web/icon.svg"
};

static const unsigned char web_icon_192_png[] = {
#embed "web/icon-192.png"
};

static const unsigned char web_icon_512_png[] = {
#embed "web/icon-512.png"
};

static const unsigned char web_icon_maskable_512_png[] = {
#embed "web/icon-maskable-512.png"
};

static const unsigned char web_js_api_mjs[] = {
#embed "web/js/api.mjs"
};

static const unsigned char web_js_app_mjs[] = {
#embed "web/js/app.mjs"
};

static const unsigned char web_js_camera_mjs[] = {
#embed "web/js/camera.mjs"
};

static const unsigned char web_js_clusters_mjs[] = {
#embed "web/js/clusters.mjs"
};

static const unsigned char web_js_cover_mjs[] = {
#embed "web/js/cover.mjs"
};

static const unsigned char web_js_export_mjs[] = {
#embed "web/js/export.mjs"
};

static const unsigned char web_js_grouping_mjs[] = {
#embed "web/js/grouping.mjs"
};

static const unsigned char web_js_in_view_mjs[] = {
#embed "web/js/in-view.mjs"
};

static const unsigned char web_js_input_mjs[] = {
#embed "web/js/input.mjs"
};

static const unsigned char web_js_list_mjs[] = {
#embed "web/js/list.mjs"
};

static const unsigned char web_js_map_view_mjs[] = {
#embed "web/js/map-view.mjs"
};

static const unsigned char web_js_markers_mjs[] = {
#embed "web/js/markers.mjs"
};

static const unsigned char web_js_mercator_mjs[] = {
#embed "web/js/mercator.mjs"
};

static const unsigned char web_js_messages_mjs[] = {
#embed "web/js/messages.mjs"
};

static const unsigned char web_js_name_layer_mjs[] = {
#embed "web/js/name-layer.mjs"
};

static const unsigned char web_js_names_mjs[] = {
#embed "web/js/names.mjs"
};

static const unsigned char web_js_pin_link_mjs[] = {
#embed "web/js/pin-link.mjs"
};

static const unsigned char web_js_pins_mjs[] = {
#embed "web/js/pins.mjs"
};

static const unsigned char web_js_popup_mjs[] = {
#embed "web/js/popup.mjs"
};

static const unsigned char web_js_post_mjs[] = {
#embed "web/js/post.mjs"
};

static const unsigned char web_js_routes_mjs[] = {
#embed "web/js/routes.mjs"
};

static const unsigned char web_js_roving_focus_mjs[] = {
#embed "web/js/roving-focus.mjs"
};

static const unsigned char web_js_session_mjs[] = {
#embed "web/js/session.mjs"
};

static const unsigned char web_js_state_mjs[] = {
#embed "web/js/state.mjs"
};

static const unsigned char web_js_students_mjs[] = {
#embed "web/js/students.mjs"
};

static const unsigned char web_js_text_mjs[] = {
#embed "web/js/text.mjs"
};

static const struct onthemap_web_file files[] = {
    {"index.html", web_index_html, sizeof web_index_html},
    {"export.html", web_export_html, sizeof web_export_html},
    {"sw.js", web_sw_js, sizeof web_sw_js},
    {"manifest.webmanifest", web_manifest_webmanifest, sizeof web_manifest_webmanifest},
    {"app.css", web_app_css, sizeof web_app_css},
    {"world.css", web_world_css, sizeof web_world_css},
    {"map.css", web_map_css, sizeof web_map_css},
    {"export.css", web_export_css, sizeof web_export_css},
    {"icon.svg", web_icon_svg, sizeof web_icon_svg},
    {"icon-192.png", web_icon_192_png, sizeof web_icon_192_png},
    {"icon-512.png", web_icon_512_png, sizeof web_icon_512_png},
    {"icon-maskable-512.png", web_icon_maskable_512_png, sizeof web_icon_maskable_512_png},
    {"js/api.mjs", web_js_api_mjs, sizeof web_js_api_mjs},
    {"js/app.mjs", web_js_app_mjs, sizeof web_js_app_mjs},
    {"js/camera.mjs", web_js_camera_mjs, sizeof web_js_camera_mjs},
    {"js/clusters.mjs", web_js_clusters_mjs, sizeof web_js_clusters_mjs},
    {"js/cover.mjs", web_js_cover_mjs, sizeof web_js_cover_mjs},
    {"js/export.mjs", web_js_export_mjs, sizeof web_js_export_mjs},
    {"js/grouping.mjs", web_js_grouping_mjs, sizeof web_js_grouping_mjs},
    {"js/in-view.mjs", web_js_in_view_mjs, sizeof web_js_in_view_mjs},
    {"js/input.mjs", web_js_input_mjs, sizeof web_js_input_mjs},
    {"js/list.mjs", web_js_list_mjs, sizeof web_js_list_mjs},
    {"js/map-view.mjs", web_js_map_view_mjs, sizeof web_js_map_view_mjs},
    {"js/markers.mjs", web_js_markers_mjs, sizeof web_js_markers_mjs},
    {"js/mercator.mjs", web_js_mercator_mjs, sizeof web_js_mercator_mjs},
    {"js/messages.mjs", web_js_messages_mjs, sizeof web_js_messages_mjs},
    {"js/name-layer.mjs", web_js_name_layer_mjs, sizeof web_js_name_layer_mjs},
    {"js/names.mjs", web_js_names_mjs, sizeof web_js_names_mjs},
    {"js/pin-link.mjs", web_js_pin_link_mjs, sizeof web_js_pin_link_mjs},
    {"js/pins.mjs", web_js_pins_mjs, sizeof web_js_pins_mjs},
    {"js/popup.mjs", web_js_popup_mjs, sizeof web_js_popup_mjs},
    {"js/post.mjs", web_js_post_mjs, sizeof web_js_post_mjs},
    {"js/routes.mjs", web_js_routes_mjs, sizeof web_js_routes_mjs},
    {"js/roving-focus.mjs", web_js_roving_focus_mjs, sizeof web_js_roving_focus_mjs},
    {"js/session.mjs", web_js_session_mjs, sizeof web_js_session_mjs},
    {"js/state.mjs", web_js_state_mjs, sizeof web_js_state_mjs},
    {"js/students.mjs", web_js_students_mjs, sizeof web_js_students_mjs},
    {"js/text.mjs", web_js_text_mjs, sizeof web_js_text_mjs},
};

const struct onthemap_web_file *onthemap_web_files(size_t *count) {
    *count = sizeof files / sizeof files[0];
    return files;
}
