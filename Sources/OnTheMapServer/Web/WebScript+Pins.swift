extension WebScript {
    /// The newest pins on the map: loading them (the server's configured count, 1,000 a request),
    /// watching for changes, drawing them as the export's markers, the search box and the count.
    ///
    /// Watching costs little: every `poll` seconds the page asks whether its session is live and
    /// whether the pins changed — with `If-None-Match` when the list came with an ETag (a 304 has no
    /// body), otherwise by asking for the newest pin alone and comparing it with the one it has.
    /// The whole list is downloaded again only when something changed. A hidden tab does not ask.
    static let pins = #"""
        function listPath(limit,skip){return "v1/StudentLocation?limit="+limit+"&order=-updatedAt"+(skip?"&skip="+skip:"");}
        function stamp(s){return s?String(s.objectId)+"@"+String(s.updatedAt):"";}
        function text(v){return typeof v==="string"?v:v==null?"":String(v);}
        function clean(s){s=s||{};return {objectId:text(s.objectId),uniqueKey:text(s.uniqueKey),firstName:text(s.firstName),
        lastName:text(s.lastName),mapString:text(s.mapString),mediaURL:text(s.mediaURL),latitude:Number(s.latitude),
        longitude:Number(s.longitude),updatedAt:text(s.updatedAt)};}
        function nameOf(s){return (s.firstName+" "+s.lastName).trim()||"(no name)";}
        function isMine(s){return !!state.session&&s.uniqueKey===state.session.key;}
        function mx(lon){return (lon+180)/360*W;}
        function my(lat){var c=Math.min(Math.max(lat,-85.0511287798066),85.0511287798066)*Math.PI/180;
        return (1-Math.log(Math.tan(Math.PI/4+c/2))/Math.PI)/2*W;}
        /* The whole list, page after page; resolves once drawn (or the failure shown). */
        function loadPins(){var want=settings.pins,got=[],etag=null,epoch=state.epoch;
        function page(skip){var n=Math.min(1000,want-skip);return api("GET",listPath(n,skip)).then(function(a){
        if(a.status!==200||!a.body||!Array.isArray(a.body.results))throw a;
        if(!skip)etag=a.headers.get("ETag");got=got.concat(a.body.results);
        if(a.body.results.length===n&&got.length<want)return page(skip+n);});}
        return page(0).then(function(){if(epoch!==state.epoch)return;state.etag=etag;drawStudents(got);},
        function(a){if(epoch===state.epoch)showAlert("Could not load the pins: "+failure(a));});}
        /* The user's own pin, newest first: the one Finish would overwrite. */
        function loadMine(){var s=state.session;if(!s)return Promise.resolve(null);
        return api("GET","v1/StudentLocation?uniqueKey="+encodeURIComponent(s.key)+"&limit=1&order=-updatedAt").then(function(a){
        if(state.session===s&&a.status===200&&a.body&&Array.isArray(a.body.results))state.mine=a.body.results[0]?clean(a.body.results[0]):null;
        return state.mine;},function(){return state.mine;});}
        function refresh(){hideAlert();return Promise.all([checkSession(),loadPins(),loadMine()]);}
        /* Whether the pins changed since they were drawn; draws them again if they did. */
        function checkPins(){var epoch=state.epoch;
        if(state.etag)return api("GET",listPath(Math.min(settings.pins,1000)),{headers:{"If-None-Match":state.etag}}).then(function(a){
        if(epoch!==state.epoch||a.status!==200||!a.body||!Array.isArray(a.body.results))return;
        if(settings.pins>1000)return loadPins();state.etag=a.headers.get("ETag");drawStudents(a.body.results);},function(){});
        return api("GET",listPath(1)).then(function(a){if(epoch!==state.epoch||a.status!==200||!a.body||!Array.isArray(a.body.results))return;
        if(stamp(a.body.results[0])!==state.newest)return loadPins();},function(){});}
        function schedulePoll(){stopPoll();if(state.session&&!document.hidden)state.pollTimer=setTimeout(poll,settings.poll*1000);}
        function stopPoll(){clearTimeout(state.pollTimer);state.pollTimer=0;}
        function poll(){state.pollTimer=0;if(!state.session||state.polling)return;state.polling=true;
        checkSession().then(function(live){if(live)return checkPins();}).finally(function(){state.polling=false;schedulePoll();});}
        document.addEventListener("visibilitychange",function(){if(document.hidden)stopPoll();else if(state.session&&!state.pollTimer)poll();});
        /* Markers as the export draws them (one per student here: students at one point are a
           cluster at every zoom), yours last so they are on top. */
        function drawStudents(list){var students=list.map(clean).filter(function(s){return isFinite(s.latitude)&&isFinite(s.longitude);});
        state.students=students;state.newest=stamp(list[0]);state.listDirty=true;
        var frag=document.createDocumentFragment(),made=[];
        students.filter(function(s){return !isMine(s);}).concat(students.filter(isMine)).forEach(function(s){
        var mine=isMine(s),g=svgEl("g"),dot=svgEl("circle"),hit=svgEl("circle"),who=svgEl("g"),name=nameOf(s),
        x=Math.round(mx(s.longitude)*10)/10,y=Math.round(my(s.latitude)*10)/10;
        g.setAttribute("class","marker"+(mine?" mine":""));g.setAttribute("data-testid","marker");g.setAttribute("data-object-id",s.objectId);
        g.setAttribute("tabindex","0");g.setAttribute("role","button");g.setAttribute("aria-label",name.slice(0,120)+", "+s.mapString.slice(0,120));
        g.setAttribute("transform","translate("+x+" "+y+") scale(1)");g.at={x:x,y:y};
        dot.setAttribute("r",mine?"7":"5");hit.setAttribute("r","14");hit.setAttribute("class","hit");
        who.setAttribute("class","student"+(mine?" mine":""));who.dataset.name=name;who.dataset.place=s.mapString;who.dataset.url=s.mediaURL;
        who.dataset.objectId=s.objectId;g.append(dot,hit,who);frag.appendChild(g);made.push(g);});
        $("markers").replaceChildren(frag);
        /* The first pins since login: the view slides to where most of them are. */
        var first=!!students.length&&!state.loaded;view.setMarkers(made,first);
        if(first){state.loaded=true;performance.mark("pins-drawn");}
        if(!$("list-view").hidden)drawList();if($("search").value.trim())search();else count(students.length,"");}
        function search(){var q=$("search").value,found=view.filter(q);if(!$("list-view").hidden)filterList(q);count(found,q);}
        function count(found,q){var n=state.students.length,c=$("count"),you=document.createElement("span");
        c.textContent=(q.trim()?found+" of "+n:String(n))+(n===1?" student":" students");
        if(state.students.some(isMine)){you.className="you";you.textContent="· ● you";c.append(" ",you);}
        c.hidden=!state.session||!$("list-view").hidden;}
        """#
}
