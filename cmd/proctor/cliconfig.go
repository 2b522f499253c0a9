package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/proctorhq/proctor/config"
)

// loadCLIConfig reads and checks a --config file, with errors that name
// the flag.
func loadCLIConfig(path string) (*config.Config, error) {
	c, err := config.Load(path)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("proctor: --config: %w", err)
	case err != nil:
		return nil, fmt.Errorf("proctor: --config %w", err)
	}
	return c, nil
}
