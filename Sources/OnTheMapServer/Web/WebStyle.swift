/// The page's own style, after the map's (`MapDocumentAssets.mapCSS`) in `app.css`.
///
/// Phones first: one bar of 48 pixels over a map that fills the rest of the screen (`100dvh`, so
/// a phone's browser bar does not push the map under it); targets of 40–48 pixels; the post form a
/// sheet at the bottom, within a thumb's reach; the list's rows stacked in two lines. From 640
/// pixels the post form is a panel beside the map and the list a table. Alerts show under the bar,
/// where they cover neither the post form's buttons nor the list's first row for long. A student's name, place
/// or link is isolated (a right-to-left override stays in it), breaks anywhere and shows at most
/// two lines: a 10 KB name cannot push anything off the screen.
enum WebStyle {
    static let css = #"""
        *{box-sizing:border-box}
        html,body{margin:0;height:100%;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;background:#dbe9f4}
        body{display:flex;flex-direction:column;height:100vh;height:100dvh;overflow:hidden}
        [hidden]{display:none!important}
        button{font:inherit;color:inherit;cursor:pointer}
        button:disabled{opacity:.6;cursor:default}
        input{font:inherit;color:inherit}
        :focus-visible{outline:2px solid #1a5fb4;outline-offset:2px}
        #bar{display:flex;align-items:center;gap:6px;min-height:48px;padding:6px max(8px,env(safe-area-inset-right)) 6px max(8px,env(safe-area-inset-left));
        padding-top:max(6px,env(safe-area-inset-top));background:#fff;border-bottom:1px solid #d5dbe3;flex:none;position:relative;z-index:3}
        .tabs{display:flex;flex:none;border:1px solid #c5ccd6;border-radius:8px;overflow:hidden}
        .tabs button{border:0;background:#fff;height:34px;padding:0 12px;color:#445}
        .tabs button[aria-selected="true"]{background:#1a5fb4;color:#fff}
        #search{flex:1 1 auto;min-width:0;max-width:28em;margin-right:auto;height:36px;padding:0 10px;border:1px solid #c5ccd6;border-radius:8px;background:#fff}
        #bar>button{flex:none;height:36px;min-width:40px;padding:0 8px;border:1px solid #c5ccd6;border-radius:8px;background:#fff;
        display:inline-flex;align-items:center;justify-content:center;gap:4px;color:#334}
        button.primary,#bar>button.primary{background:#1a5fb4;border-color:#1a5fb4;color:#fff}
        .glyph{width:20px;height:20px;fill:currentColor;flex:none}
        @media (max-width:520px){.wide{display:none}}
        #stage{position:relative;flex:1 1 auto;min-height:0;overflow:hidden}
        #count{position:absolute;left:8px;bottom:max(8px,env(safe-area-inset-bottom));margin:0;padding:2px 10px;border-radius:12px;
        background:rgba(255,255,255,.88);color:#445;font-size:13px;pointer-events:none;white-space:nowrap}
        #count .you{margin-left:.3em}
        #map.previewing #markers,#map.previewing #clusters{display:none}
        .marker circle.hit{fill:transparent;stroke:none}
        .candidate path{fill:#1a5fb4;stroke:#fff;stroke-width:1.5px;vector-effect:non-scaling-stroke}
        #list-view{position:absolute;inset:0;z-index:1;overflow-y:auto;background:#fff;overscroll-behavior:contain}
        #student-list{list-style:none;margin:0;padding:0 0 max(0px,env(safe-area-inset-bottom))}
        #student-list li{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,2fr) minmax(0,2fr) 7.5em;gap:4px 16px;align-items:center;
        min-height:52px;padding:8px 16px;border-bottom:1px solid #eceff3;cursor:pointer}
        #student-list li:hover,#student-list li:focus-visible{background:#f2f6fb}
        #student-list li:focus-visible{outline-offset:-2px}
        #student-list .who,#student-list .place,#student-list .link{min-width:0;overflow:hidden;overflow-wrap:anywhere;
        display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2}
        #student-list .name,#student-list .place,#student-list .link{unicode-bidi:isolate}
        #student-list .you{display:inline-block;padding:0 6px;border-radius:8px;background:#6a2bd6;color:#fff;font-size:12px}
        #student-list .place{color:#445}
        #student-list .link a{color:#1a5fb4}
        #student-list .link.nolink{color:#889}
        #student-list .updated{color:#667;font-size:13px;text-align:right;white-space:nowrap}
        #list-empty{padding:24px 16px;color:#667}
        @media (max-width:640px){
        #student-list li{grid-template-columns:minmax(0,1fr) auto;grid-template-areas:"who updated" "place place" "link link";gap:2px 8px;
        min-height:64px;padding:10px 12px}
        #student-list .who{grid-area:who}#student-list .place{grid-area:place;-webkit-line-clamp:1}
        #student-list .link{grid-area:link;-webkit-line-clamp:1;font-size:14px}#student-list .updated{grid-area:updated}
        }
        #login,#post{position:absolute;z-index:4;background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.22)}
        #login{top:50%;left:50%;transform:translate(-50%,-50%);width:min(360px,calc(100% - 24px));max-height:calc(100% - 24px);overflow-y:auto;padding:24px}
        #login h1{margin:0;font-size:24px}
        .lead{margin:4px 0 16px;color:#556}
        label{display:block;margin:0 0 12px;font-weight:600;font-size:14px;color:#334}
        label input{display:block;width:100%;height:44px;margin-top:4px;padding:0 12px;border:1px solid #b8c0cc;border-radius:8px;font-weight:400;background:#fff}
        #login-error{margin:0 0 12px;padding:8px 10px;border-radius:8px;background:#fdecea;color:#8c1d18;overflow-wrap:anywhere}
        #login-submit{width:100%;height:44px;border:1px solid #1a5fb4;border-radius:8px}
        .signup{margin:16px 0 0;text-align:center;color:#556}.signup a{color:#1a5fb4}
        #post{top:12px;left:12px;width:min(380px,calc(100% - 24px));max-height:calc(100% - 24px);overflow-y:auto;padding:16px}
        #post h2{margin:0 0 12px;font-size:18px}
        #post-picked{margin:0 0 8px;font-weight:600;overflow-wrap:anywhere}
        #post-candidates{list-style:none;margin:0 0 8px;padding:0;max-height:min(14em,32vh);overflow-y:auto}
        #post-candidates li+li{margin-top:6px}
        #post-candidates button{display:block;width:100%;min-height:44px;padding:8px 12px;text-align:left;border:1px solid #c5ccd6;border-radius:8px;background:#fff}
        #post-candidates button[aria-pressed="true"]{border-color:#1a5fb4;background:#eaf1fb;box-shadow:inset 0 0 0 1px #1a5fb4}
        #post-candidates .country{display:block;color:#667;font-size:13px}
        .actions{display:flex;gap:8px;justify-content:flex-end;margin-top:4px}
        .actions button{min-height:44px;padding:0 16px;border:1px solid #c5ccd6;border-radius:8px;background:#fff}
        .actions button.primary{background:#1a5fb4;border-color:#1a5fb4;color:#fff}
        @media (max-width:640px){
        #post{top:auto;left:0;right:0;bottom:0;width:auto;max-height:70%;border-radius:14px 14px 0 0;padding:14px 14px max(14px,env(safe-area-inset-bottom))}
        .actions button{flex:1}
        }
        dialog{max-width:min(420px,calc(100% - 24px));padding:20px;border:0;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.3)}
        dialog::backdrop{background:rgba(0,0,0,.35)}
        dialog p{margin:0 0 16px;overflow-wrap:anywhere}
        #busy{position:fixed;top:0;left:0;right:0;height:4px;z-index:10;pointer-events:none;
        background:linear-gradient(90deg,transparent 0,#1a5fb4 50%,transparent 100%) #cfe0f5;background-size:40% 100%;background-repeat:no-repeat;
        animation:busy 1s linear infinite}
        @keyframes busy{from{background-position:-60% 0}to{background-position:160% 0}}
        @media (prefers-reduced-motion:reduce){#busy{animation:none;background:#1a5fb4}}
        #alert,#toast{position:fixed;left:50%;transform:translateX(-50%);z-index:8;width:max-content;max-width:min(560px,calc(100% - 24px));
        max-height:40%;overflow-y:auto;padding:10px 14px;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.25);overflow-wrap:anywhere}
        #alert{top:calc(56px + env(safe-area-inset-top));padding-right:44px;background:#b3261e;color:#fff}
        #alert-close{position:absolute;top:2px;right:2px;width:40px;height:40px;border:0;background:none;color:#fff;font-size:20px}
        #toast{bottom:max(64px,calc(env(safe-area-inset-bottom) + 48px));background:#2b3440;color:#fff}
        body.signed-out #count{display:none}
        """#
}
