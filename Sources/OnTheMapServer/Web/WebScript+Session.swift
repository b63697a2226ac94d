extension WebScript {
    /// Logging in and out, and noticing a session that ended elsewhere.
    ///
    /// The session id lives in `sessionStorage` (this tab only, gone when it closes) and travels in
    /// the `X-OnTheMap-Session` header, never a cookie, so another site cannot make the browser use
    /// it. Logging out needs the XSRF token the server sets as a cookie at login: the page reads it
    /// once, keeps it with the session, and deletes the cookie.
    ///
    /// Login errors say what happened: no answer (the network) is not a wrong password, and a rate
    /// limit says how long to wait in words.
    static let session = #"""
        function loadSession(){try{var s=JSON.parse(sessionStorage.getItem(SESSION_KEY));
        return s&&typeof s.id==="string"&&typeof s.key==="string"?s:null;}catch(e){return null;}}
        function saveSession(s){state.session=s;try{if(s)sessionStorage.setItem(SESSION_KEY,JSON.stringify(s));
        else sessionStorage.removeItem(SESSION_KEY);}catch(e){}}
        function takeXSRFToken(){var m=document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
        document.cookie="XSRF-TOKEN=; Max-Age=0; Path=/; SameSite=Strict";
        try{return m?decodeURIComponent(m[1]):"";}catch(e){return "";}}
        function loginError(text){var e=$("login-error");e.textContent=text;e.hidden=!text;}
        function loginFailure(a){if(a.network)return "Cannot reach the server. Check your connection and try again.";
        var said=a.body&&typeof a.body.error==="string"?a.body.error:"";
        if(a.status===403||a.status===401)return said||"Wrong email or password.";
        if(a.status===429)return "Too many login attempts. Try again in "+inWords(retryAfter(a))+".";
        if(a.status>=500)return "The server cannot log you in right now"+(said?": "+said:".")+" Try again in a moment.";
        return said||"The server refused the login ("+a.status+").";}
        function login(ev){ev.preventDefault();var email=$("login-username").value.trim(),password=$("login-password").value;
        if(!email||!password){loginError("Enter your email and password.");($("login-username").value.trim()?$("login-password"):$("login-username")).focus();return;}
        loginError("");$("login-submit").disabled=true;var epoch=state.epoch;
        api("POST","v1/session",{body:{udacity:{username:email,password:password}}}).then(function(a){
        if(epoch!==state.epoch)return;
        if(a.status!==200||!a.body||!a.body.session||!a.body.account){loginError(loginFailure(a));return;}
        var s={id:String(a.body.session.id),key:String(a.body.account.key),xsrf:takeXSRFToken(),first:"",last:""};
        saveSession(s);$("login-password").value="";
        return loadProfile().then(enter);
        },function(a){loginError(loginFailure(a));}).finally(function(){$("login-submit").disabled=false;});}
        /* The user's names, which a pin carries. */
        function loadProfile(){var s=state.session;if(!s)return Promise.resolve();
        return api("GET","v1/users/"+encodeURIComponent(s.key)).then(function(a){
        var p=a.body&&(a.body.user||a.body);if(a.status!==200||!p||state.session!==s)return;
        s.first=String(p.first_name||p.firstName||"");s.last=String(p.last_name||p.lastName||"");saveSession(s);},function(){});}
        function enter(){if(!state.session)return;document.body.className="signed-in";$("login").hidden=true;$("bar").hidden=false;
        loginError("");showTab("map");refresh();schedulePoll();}
        /* Back to the login screen, forgetting the session and everything shown with it. */
        function leave(message){state.epoch++;stopPoll();saveSession(null);closePost(false);
        state.students=[];state.etag=null;state.newest="";state.mine=null;state.loaded=false;
        drawStudents([]);showTab("map");document.body.className="signed-out";$("bar").hidden=true;$("search").value="";
        $("login").hidden=false;hideAlert();loginError(message||"");$("login-username").focus({preventScroll:true});}
        function expired(){leave("Your session has ended: it expired or was revoked. Log in again.");}
        function logout(){var s=state.session;if(!s){leave();return;}
        api("DELETE","v1/session",{headers:{"X-XSRF-TOKEN":s.xsrf||""}}).then(function(a){
        /* 403: the server no longer knows the session (revoked, or logged out elsewhere). */
        if(a.status===200||a.status===401||a.status===403)leave();else showAlert("Could not log out: "+failure(a));},
        function(a){showAlert("Could not log out: "+failure(a)+" You are still logged in.");});}
        /* Whether the session is still live; an ended one goes back to the login screen. No answer
           counts as live: the next check asks again. */
        function checkSession(){var s=state.session;if(!s)return Promise.resolve(false);
        return api("GET","v1/session",{auth:true}).then(function(a){if(state.session!==s)return false;
        if(a.status===401){expired();return false;}return true;},function(){return true;});}
        """#
}
