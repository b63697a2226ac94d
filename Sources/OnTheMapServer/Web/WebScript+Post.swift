extension WebScript {
    /// Posting your place, as the seeds do it: place and link → "Find on map" (the server's
    /// gazetteer, `GET /v1/geocode`) → the place on the map, with the other candidates to pick
    /// from → Finish posts the pin, or asks before it replaces the one you have and then PUTs it.
    /// Cancel puts the map back as it was. The pin's `mapString` is the picked place's label
    /// ("Springfield, Illinois"), not the text typed.
    ///
    /// While a place is previewed the students' markers are hidden and the candidate is drawn as a
    /// pin that keeps its size on screen (`onView`), centred in the part of the map the form leaves,
    /// at a zoom that shows the coasts and borders around it (an area of 12,000 × 9,000 map units, a
    /// fifth of the world across on a desktop, a ninth on a phone held upright).
    static let post = #"""
        var posting={places:[],chosen:0,link:"",camera:null,pending:null},previewLayer=svgEl("g");
        previewLayer.setAttribute("id","preview");
        function openPost(){if(!state.session)return;hideAlert();showTab("map");view.hide();
        posting.camera=posting.camera||view.camera();$("post").hidden=false;postStep("ask");
        if(!$("post-link").value&&state.mine&&isWebLink(state.mine.mediaURL))$("post-link").value=state.mine.mediaURL;
        $("post-place").focus();loadMine();}
        function closePost(restore){$("post").hidden=true;postStep("ask");if($("overwrite").open)$("overwrite").close("keep");
        if(restore&&posting.camera)view.camera(posting.camera);posting.camera=null;}
        function postStep(step){var pick=step==="pick";$("post-ask").hidden=pick;$("post-pick").hidden=!pick;$("post-find").hidden=pick;
        $("post-finish").hidden=!pick;$("post-title").textContent=pick?"Is this the place?":"Where are you?";
        $("map").classList.toggle("previewing",pick);if(!pick){previewLayer.replaceChildren();$("post-candidates").replaceChildren();}}
        function find(ev){ev.preventDefault();if($("post-find").hidden)return;
        var place=$("post-place").value.trim(),link=$("post-link").value.trim();
        if(!place){showAlert("Enter your place: a city and its country, such as \u201cLima, Peru\u201d.");$("post-place").focus();return;}
        if(!isWebLink(link)){showAlert("Enter a link that starts with http:// or https://, such as your GitHub page.");$("post-link").focus();return;}
        hideAlert();$("post-find").disabled=true;var epoch=state.epoch;
        api("GET","v1/geocode?q="+encodeURIComponent(place)+"&limit=5",{auth:true}).then(function(a){if(epoch!==state.epoch)return;
        if(a.status===401){expired();return;}
        if(a.status!==200||!a.body||!Array.isArray(a.body.results)){showAlert("Could not look the place up: "+failure(a));return;}
        var places=a.body.results.filter(function(p){return p&&typeof p.label==="string"&&isFinite(p.latitude)&&isFinite(p.longitude);});
        if(!places.length){showAlert("No place matches \u201c"+place+"\u201d. Try a city and its country, such as \u201cLima, Peru\u201d.");return;}
        posting.places=places;posting.link=link;drawCandidates();postStep("pick");choose(0);$("post-finish").focus();},
        function(a){showAlert("Could not look the place up: "+failure(a));}).finally(function(){$("post-find").disabled=false;});}
        function drawCandidates(){var ul=$("post-candidates");
        ul.replaceChildren.apply(ul,posting.places.map(function(p,i){var li=document.createElement("li"),b=document.createElement("button"),
        label=document.createElement("strong"),where=document.createElement("span");b.type="button";
        b.setAttribute("data-testid","post-candidate");b.setAttribute("aria-pressed","false");label.textContent=p.label;
        where.className="country";where.textContent=[p.admin1,p.country].filter(function(t){return t&&p.label.indexOf(t)<0;}).join(", ");
        b.append(label,where);b.addEventListener("click",function(){choose(i);});li.append(b);return li;}));
        ul.hidden=posting.places.length<2;$("post-picked").hidden=!ul.hidden;}
        function choose(i){posting.chosen=i;var p=posting.places[i];
        Array.prototype.forEach.call($("post-candidates").querySelectorAll("button"),function(b,j){b.setAttribute("aria-pressed",String(j===i));});
        $("post-picked").textContent=p.label;preview(p);}
        function preview(p){var g=svgEl("g"),pin=svgEl("path"),x=mx(p.longitude),y=my(p.latitude),
        r=$("map").getBoundingClientRect(),f=$("post").getBoundingClientRect(),u=Math.sqrt(12000*9000/Math.max(r.width*r.height,1)),dx=0,dy=0;
        g.setAttribute("class","candidate");g.setAttribute("transform","translate("+x+" "+y+") scale(1)");
        pin.setAttribute("d","M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z");
        pin.setAttribute("transform","translate(-12 -22) scale(1.4)");g.append(pin);previewLayer.replaceChildren(g);
        /* Centred in what the form leaves of the map: above a sheet, beside a panel. */
        if(f.width>=r.width*0.9)dy=(r.bottom-f.top)/2;else dx=-(f.right-r.left)/2;
        view.look(x+dx*u,y+dy*u,u);}
        function followZoom(unit){var c=previewLayer.firstChild;if(c)c.transform.baseVal.getItem(1).setScale(unit,unit);}
        function finish(){var p=posting.places[posting.chosen];if(!p||!state.session)return;$("post-finish").disabled=true;
        loadMine().then(function(mine){if(!state.session)return;
        if(!mine){send(null,p);return;}
        posting.pending={mine:mine,place:p};
        $("overwrite-text").textContent="You already have a pin at \u201c"+mine.mapString+"\u201d. Replace it with \u201c"+p.label+"\u201d?";
        $("overwrite").returnValue="";$("overwrite").showModal();});}
        function answered(){var d=$("overwrite"),pending=posting.pending;posting.pending=null;
        if(pending&&d.returnValue==="replace")send(pending.mine,pending.place);else $("post-finish").disabled=false;}
        function send(mine,p){var s=state.session,epoch=state.epoch,body={uniqueKey:s.key,firstName:s.first||"",lastName:s.last||"",
        mapString:p.label,mediaURL:posting.link,latitude:Number(p.latitude),longitude:Number(p.longitude)};
        var ready=body.firstName?Promise.resolve():loadProfile().then(function(){body.firstName=s.first;body.lastName=s.last;});
        ready.then(function(){return api(mine?"PUT":"POST",mine?"v1/StudentLocation/"+encodeURIComponent(mine.objectId):"v1/StudentLocation",
        {auth:true,body:body});}).then(function(a){if(epoch!==state.epoch)return;
        if(a.status===401){expired();return;}
        if(a.status!==200&&a.status!==201){showAlert("Could not post your pin: "+failure(a));return;}
        posting.camera=null;closePost(false);$("post-place").value="";
        toast(mine?"Your pin moved to "+p.label+".":"Your pin is on the map at "+p.label+".");
        return Promise.all([loadPins(),loadMine()]).then(function(){view.look(mx(body.longitude),my(body.latitude));});},
        function(a){showAlert("Could not post your pin: "+failure(a));}).finally(function(){$("post-finish").disabled=false;});}
        """#
}
