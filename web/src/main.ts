// The client's entry: "/" is the lobby, "/t/<table>" a table.
import "./style.css";
import "./howto"; // a link to a game's guide (#how-to-play=<game>) works on every page
import { showLobby } from "./lobby";
import { showTable } from "./table";

const root = document.getElementById("app")!;
const match = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
if (match) showTable(root, decodeURIComponent(match[1]));
else void showLobby(root);
