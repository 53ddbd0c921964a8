// The oz0 web console: draws the page its address names, from the public API only.
import { render } from "preact";
import { App } from "./app";
import "./styles.css";

render(<App />, document.getElementById("app")!);
