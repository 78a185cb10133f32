type -t bash
