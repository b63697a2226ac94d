import OnTheMapMap

/// The page's script, after the map's (`MapScript.engine`) in `app.js`, inside one function so
/// nothing leaks into the page's globals. One part per concept, in the order they run:
/// requests and messages here, then the session (`WebScript+Session`), the pins on the map
/// (`+Pins`), the list (`+List`), posting (`+Post`) and the start (`+Start`).
///
/// The page is a client like the CLI: it speaks the public API only (docs/API.md: `/v1/session`,
/// `/v1/users`, `/v1/StudentLocation`, and `/v1/geocode`), with paths relative to the page, so it
/// also works under a prefix behind a proxy. Every student field reaches the page as text
/// (`textContent`, `dataset`); only http(s) links become links.
enum WebScript {
    static var source: String {
        [core, session, pins, list, post, start].joined(separator: "\n")
    }

    /// Requests, the busy bar, alerts, words for waits and times.
    static let core = #"""
        var $=function(id){return document.getElementById(id);},
        NS="http://www.w3.org/2000/svg",W=65535,SESSION_KEY="onthemap.session",
        settings={pins:Math.max(1,parseInt(meta("onthemap-pins"),10)||100),poll:Math.max(1,parseInt(meta("onthemap-poll-seconds"),10)||10)},
        /* session: {id, key, xsrf, first, last} while logged in; epoch: bumped at each logout, so an
           answer to a request made before it is dropped. */
        state={session:null,epoch:0,students:[],etag:null,newest:"",mine:null,loaded:false,listDirty:true,pollTimer:0,polling:false},
        busy=0;
        function meta(name){var m=document.querySelector('meta[name="'+name+'"]');return m?m.content:"";}
        function svgEl(name){return document.createElementNS(NS,name);}
        /* One request to the API, with the busy bar shown while it runs. Resolves with
           {status, headers, body} (the XSSI prefix stripped, JSON parsed) for any answer; rejects with
           {network: true} when none came. */
        function api(method,path,o){o=o||{};var headers={"Accept":"application/json"};
        if(o.body!==undefined)headers["Content-Type"]="application/json";
        if(o.auth&&state.session)headers["X-OnTheMap-Session"]=state.session.id;
        if(o.headers)Object.keys(o.headers).forEach(function(k){headers[k]=o.headers[k];});
        setBusy(1);
        return fetch(path,{method:method,headers:headers,body:o.body===undefined?undefined:JSON.stringify(o.body),
        credentials:"same-origin",cache:"no-store"}).then(function(r){return r.text().then(function(text){
        if(text.slice(0,5)===")]}'\n")text=text.slice(5);var body=null;try{body=text?JSON.parse(text):null;}catch(e){body=null;}
        return {status:r.status,headers:r.headers,body:body};});}).catch(function(){throw {network:true};})
        .finally(function(){setBusy(-1);});}
        function setBusy(d){busy=Math.max(0,busy+d);$("busy").hidden=!busy;document.body.setAttribute("aria-busy",busy?"true":"false");}
        /* What went wrong with an answer, for a person. */
        function failure(a){if(!a||a.network)return "Cannot reach the server. Check your connection and try again.";
        var said=a.body&&typeof a.body.error==="string"?a.body.error:"";
        if(a.status===429)return (said||"Too many requests.")+" Try again in "+inWords(retryAfter(a))+".";
        if(a.status>=500)return (said||"The server failed.")+" (error "+a.status+")";
        return said||"The server answered "+a.status+".";}
        function retryAfter(a){var s=parseInt(a.headers&&a.headers.get("Retry-After"),10);return isNaN(s)||s<1?60:s;}
        function plural(n,word){return n+" "+word+(n===1?"":"s");}
        function inWords(seconds){if(seconds<60)return plural(seconds,"second");var m=Math.ceil(seconds/60);
        if(m<60)return plural(m,"minute");return plural(Math.ceil(m/60),"hour");}
        function ago(iso){var t=Date.parse(iso);if(isNaN(t))return "";var s=Math.round((Date.now()-t)/1000);
        if(s<60)return "just now";var m=Math.round(s/60);if(m<60)return m+" min ago";var h=Math.round(m/60);
        if(h<24)return plural(h,"hour")+" ago";var d=Math.round(h/24);if(d<31)return plural(d,"day")+" ago";
        return new Date(t).toLocaleDateString();}
        function showAlert(text){$("alert-text").textContent=text;$("alert").hidden=false;}
        function hideAlert(){$("alert").hidden=true;}
        function toast(text){var t=$("toast");t.textContent=text;t.hidden=false;clearTimeout(toast.timer);
        toast.timer=setTimeout(function(){t.hidden=true;},4000);}
        function isWebLink(u){return /^https?:\/\/[^\s\/?#@]+(?:[\/?#]\S*)?$/i.test(u);}
        function fold(t){return t.normalize("NFD").replace(/[\u0300-\u036f]/g,"").toLowerCase();}
        """#
}
